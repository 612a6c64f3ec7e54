import type { EmbeddingsModel } from '@energetic-ai/embeddings';

type Tokenizer = EmbeddingsModel['tokenizer'];
/** What @energetic-ai/embeddings' Tokenizer holds (private in its typings): [piece, score] by id. */
type TokenizerInternals = { vocabulary: [string, number][]; trie: { root: TrieNode; commonPrefixSearch(ss: string[]): Piece[] } };
type TrieNode = { children: Record<string, TrieNode> };
/** [the piece's symbols, its score, its id]. */
type Piece = [string[], number, number];

const SEPARATOR = '\u2581';

/**
 * use-lite's SentencePiece tokenizer (Tokenizer.encode of @energetic-ai/embeddings 0.2, Apache-2.0)
 * with the same output in linear time. The library looks up the pieces starting at each
 * position with `symbols.slice(i)`, a copy of the rest of the text: quadratic (a 32 KB message
 * took 6 s, 64 KB 24 s). A piece has at most as many symbols as the vocabulary trie is deep,
 * so a slice of that many symbols finds the same pieces. The rest is the library's algorithm
 * as it is: NFKC, spaces as U+2581, the best-scoring segmentation (Viterbi), consecutive
 * unknown pieces merged. test/robustness/linear-text.test.ts compares the two.
 */
export function linearEncode(tokenizer: Tokenizer): (text: string) => number[] {
  const { vocabulary, trie } = tokenizer as unknown as TokenizerInternals;
  const span = trieDepth(trie.root) + 1;
  return (text) => {
    const normalized = text.normalize('NFKC');
    const symbols = [...(normalized.length > 0 ? SEPARATOR + normalized.replace(/ /g, SEPARATOR) : normalized)];
    // The pieces ending at each position, in the order the library visits them: by start
    // position, ascending (its object keys), then as found.
    const pieceEnds: Piece[][] = Array.from({ length: symbols.length + 1 }, () => []);
    for (let i = 0; i < symbols.length; i++)
      for (const piece of trie.commonPrefixSearch(symbols.slice(i, i + span))) pieceEnds[i + piece[0].length]!.push(piece);
    const best = new Array<number>(symbols.length + 1).fill(0);
    const words = new Array<number>(symbols.length + 1).fill(0);
    for (let end = 0; end <= symbols.length; end++) {
      for (const [key, score, index] of pieceEnds[end]!) {
        const total = score + best[end - key.length]!;
        if (best[end] === 0 || total >= best[end]!) {
          best[end] = total;
          words[end] = index;
        }
      }
    }
    const ids: number[] = [];
    for (let at = words.length - 1; at > 0; at -= vocabulary[words[at]!]![0].length) ids.push(words[at]!);
    const merged: number[] = [];
    let previousUnknown = false;
    for (const id of ids) {
      if (!(previousUnknown && id === 0)) merged.push(id);
      previousUnknown = id === 0;
    }
    return merged.reverse();
  };
}

/** Makes the model's tokenizer linear (linearEncode): the same tokens, so the same vectors. */
export function installLinearTokenizer(model: EmbeddingsModel): void {
  const encode = linearEncode(model.tokenizer);
  Object.defineProperty(model.tokenizer, 'encode', { value: encode });
}

/** Symbols of the longest piece: the depth of the vocabulary trie. */
function trieDepth(root: TrieNode): number {
  let deepest = 0;
  const stack: [TrieNode, number][] = [[root, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    for (const child of Object.values(node.children)) stack.push([child, depth + 1]);
  }
  return deepest;
}
