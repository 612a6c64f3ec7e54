import { getEncoding, type Tiktoken, type TiktokenEncoding } from 'js-tiktoken';

export const TOKENIZERS = ['cl100k_base', 'o200k_base'] as const;
export type TokenizerName = (typeof TOKENIZERS)[number];
export const DEFAULT_TOKENIZER: TokenizerName = 'cl100k_base';

export function isTokenizerName(name: string): name is TokenizerName {
  return (TOKENIZERS as readonly string[]).includes(name);
}

/**
 * Counts tokens with a real BPE tokenizer, memoised by content: a text seen twice is encoded
 * once. Always count the exact text that would be sent to the model.
 */
export class TokenCounter {
  private readonly encoder: Tiktoken;
  private readonly memo = new Map<string, number>();
  hits = 0;
  misses = 0;

  constructor(readonly tokenizer: TokenizerName = DEFAULT_TOKENIZER) {
    this.encoder = bpe(tokenizer);
  }

  // Special-token strings such as <|endoftext|> are counted as plain text: a tool description
  // is data, not a control sequence.
  count(text: string): number {
    // A long text is not memoised whole (a prompt is rarely repeated, and keeping every one
    // would hold hundreds of MB); its pieces are.
    if (text.length >= SPLIT_ABOVE_CHARS) return this.countBySeams(text);
    const known = this.memo.get(text);
    if (known !== undefined) {
      this.hits++;
      return known;
    }
    this.misses++;
    const n = this.encoder.encode(text, [], []).length;
    // A copy as the key: `text` is often a slice of a whole prompt, and V8 keeps a slice's
    // parent string alive, so a slice as key would keep every prompt in memory.
    this.memo.set(flatCopy(text), n);
    return n;
  }

  /**
   * A long text is split after every newline followed by a non-space character and its
   * pieces are counted (memoised) and added up. At such a seam cl100k/o200k pre-tokenisation
   * always splits, so the sum equals the count of the whole text (test/tokens checks it);
   * the gain is that pieces recurring across prompts (one tool definition per line, a
   * history turn) are encoded once even when the prompt around them is new.
   */
  private countBySeams(text: string): number {
    let total = 0;
    let start = 0;
    for (let i = text.indexOf('\n'); i >= 0 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) {
      if (/\s/.test(text[i + 1]!)) continue;
      total += this.count(text.slice(start, i + 1));
      start = i + 1;
    }
    if (start === 0) return this.countUnsplittable(text);
    return total + this.count(text.slice(start));
  }

  /** A long text without seams: memoised whole (by a copy, as in count). */
  private countUnsplittable(text: string): number {
    const known = this.memo.get(text);
    if (known !== undefined) {
      this.hits++;
      return known;
    }
    this.misses++;
    const n = this.encoder.encode(text, [], []).length;
    this.memo.set(flatCopy(text), n);
    return n;
  }

  encode(text: string): number[] {
    return this.encoder.encode(text, [], []);
  }

  /** The text of token ids (a lone piece of a multi-byte character decodes to U+FFFD). */
  decode(ids: number[]): string {
    return this.encoder.decode(ids);
  }
}

/** A string that shares no memory with `text` (only paid on a memo miss, next to a BPE encode that costs far more). */
function flatCopy(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** Texts at least this long are counted piecewise at seams (see countBySeams). */
const SPLIT_ABOVE_CHARS = 1_000;

// js-tiktoken parses its ~100k-200k ranks on every getEncoding (about a second and 80-130 MB
// each); an encoder holds no per-text state, so one per tokenizer serves every counter.
const encoders = new Map<TokenizerName, Tiktoken>();

function bpe(tokenizer: TokenizerName): Tiktoken {
  let e = encoders.get(tokenizer);
  if (!e) {
    e = getEncoding(tokenizer as TiktokenEncoding);
    encoders.set(tokenizer, e);
  }
  return e;
}

const shared = new Map<TokenizerName, TokenCounter>();

/** One memoised counter per tokenizer for the whole process. */
export function tokenCounter(tokenizer: TokenizerName = DEFAULT_TOKENIZER): TokenCounter {
  let c = shared.get(tokenizer);
  if (!c) {
    c = new TokenCounter(tokenizer);
    shared.set(tokenizer, c);
  }
  return c;
}

export function countTokens(text: string, tokenizer: TokenizerName = DEFAULT_TOKENIZER): number {
  return tokenCounter(tokenizer).count(text);
}
