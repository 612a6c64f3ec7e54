import { createRequire } from 'node:module';
import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import { sharedBytes } from '../util/process-shared.ts';
import { cached, runCache } from '../util/run-scope.ts';
import { buildRankTable, RankTable } from './rank-table.ts';

export const TOKENIZERS = ['cl100k_base', 'o200k_base'] as const;
export type TokenizerName = (typeof TOKENIZERS)[number];
export const DEFAULT_TOKENIZER: TokenizerName = 'cl100k_base';

/**
 * Counts tokens with a real BPE tokenizer, memoised by content: a text seen twice is encoded
 * once. Always count the exact text that would be sent to the model.
 */
export class TokenCounter {
  private readonly fast: (text: string) => number;
  private readonly memo = new Map<string, number>();
  /** Counts kept with the object that carries the text (countKeptWith). */
  private readonly byOwner = new WeakMap<object, { text: string; n: number }>();
  private encoder: Tiktoken | undefined;
  hits = 0;
  misses = 0;

  constructor(readonly tokenizer: TokenizerName = DEFAULT_TOKENIZER) {
    this.fast = pieceCounter(tokenizer);
  }

  // Special-token strings such as <|endoftext|> are counted as plain text: a tool description
  // is data, not a control sequence.
  count(text: string): number {
    return this.countMemoised(text, true);
  }

  /** count(text), without keeping `text` itself in the memo (its pieces are kept as usual): for a caller that keeps the count. */
  countUnkept(text: string): number {
    return this.countMemoised(text, false);
  }

  private countMemoised(text: string, keep: boolean): number {
    // A long text is not memoised whole (a prompt is rarely repeated, and keeping every one
    // would hold hundreds of MB); its pieces are.
    if (text.length >= SPLIT_ABOVE_CHARS) return this.countBySeams(text);
    const known = this.memo.get(text);
    if (known !== undefined) {
      this.hits++;
      return known;
    }
    this.misses++;
    const n = text.length < LONG_RUN_CHARS ? this.fast(text) : this.countLongRuns(text);
    // A copy as the key: `text` is often a slice of a whole prompt, and V8 keeps a slice's
    // parent string alive, so a slice as key would keep every prompt in memory.
    if (keep) this.memo.set(flatCopy(text), n);
    return n;
  }

  /**
   * A long text is split after every newline that starts a seam (seamAfterNewline) and its
   * pieces are counted (memoised) and added up. At such a seam cl100k/o200k pre-tokenisation
   * always splits, so the sum equals the count of the whole text (test/tokens checks it);
   * the gain is that pieces recurring across prompts (one tool definition per line, a
   * history turn) are encoded once even when the prompt around them is new.
   */
  private countBySeams(text: string): number {
    let total = 0;
    let start = 0;
    for (let i = text.indexOf('\n'); i >= 0 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) {
      if (!seamAfter(text, i)) continue;
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
    const n = this.countLongRuns(text);
    this.memo.set(flatCopy(text), n);
    return n;
  }

  /**
   * js-tiktoken's BPE is quadratic in the length of one pre-token (a run of letters,
   * punctuation or spaces): 16 KB of letters without a space takes ~30 s. Runs of
   * LONG_RUN_CHARS or more are therefore counted in RUN_PIECE_CHARS pieces, which keeps every
   * count linear. Only such runs are affected (no real word, identifier or JSON punctuation is
   * that long, so normal counts are unchanged); for them the count is that of the pieces,
   * within about two tokens per piece of the unsplit count (600 letters: 135 against 124).
   */
  private countLongRuns(text: string): number {
    if (!hasLongRun(text)) return this.fast(text);
    let total = 0;
    let start = 0;
    for (const [from, to] of longRuns(text)) {
      if (from > start) total += this.fast(text.slice(start, from));
      const run = text.slice(from, to);
      for (let i = 0; i < run.length;) {
        let end = Math.min(i + RUN_PIECE_CHARS, run.length);
        if (/[\uDC00-\uDFFF]/.test(run[end] ?? '')) end++; // never cut a surrogate pair
        total += this.count(run.slice(i, end)); // shorter than LONG_RUN_CHARS: encoded directly
        i = end;
      }
      start = to;
    }
    if (start < text.length) total += this.fast(text.slice(start));
    return total;
  }

  /**
   * count(text) of a text an object carries, kept with the object: a builder that hands back
   * the same object on every turn (a full tool list, a transcript) has it counted once, without
   * the text being split, hashed and looked up again. The text is compared too, in case the
   * object is reused with new text. `keepText: false` counts without keeping the text in the
   * text memo (countUnkept): the count is kept here, with its object.
   */
  countKeptWith(owner: object, text: string, keepText = true): number {
    const known = this.byOwner.get(owner);
    if (known && known.text === text) return known.n;
    const n = keepText ? this.count(text) : this.countUnkept(text);
    this.byOwner.set(owner, { text, n });
    return n;
  }

  encode(text: string): number[] {
    return this.bpe().encode(text, [], []);
  }

  /** The text of token ids (a lone piece of a multi-byte character decodes to U+FFFD). */
  decode(ids: number[]): string {
    return this.bpe().decode(ids);
  }

  // js-tiktoken's encoder, for encode() and decode() only (token counts do not need it): it
  // parses every rank of the tokenizer into two maps and a byte array per token, so it is made
  // only when asked for.
  private bpe(): Tiktoken {
    return (this.encoder ??= new Tiktoken(ranksOf(this.tokenizer)));
  }
}

/**
 * True when cl100k/o200k pre-tokenisation always splits between a newline and this next
 * character: it is neither white space (a run of spaces and newlines is one pre-token) nor
 * `/` (o200k's punctuation pre-token ` ?[^\s\p{L}\p{N}]+[\r\n/]*` takes newlines and the
 * slashes after them: `,\n//` is one token).
 */
export function seamAfterNewline(next: string): boolean {
  return !/[\s/]/.test(next);
}

/**
 * True when pre-tokenisation always splits after the newline at `text[i]`: seamAfterNewline
 * holds for the next character, or spaces and tabs follow up to a character that is not white
 * space. There cl100k/o200k take the newline alone (`\s*[\r\n]+` is tried before
 * `\s+(?!\S)`, and no other pre-token starts with or runs on past it), so indented code and
 * nested JSON split at every line too, and their lines are memoised like any other.
 */
function seamAfter(text: string, i: number): boolean {
  let j = i + 1;
  while (text[j] === ' ' || text[j] === '\t') j++;
  if (j === i + 1) return seamAfterNewline(text[j]!);
  return j < text.length && !/\s/.test(text[j]!);
}

/** Runs of one character class at least this long are counted in pieces (see countLongRuns). */
const LONG_RUN_CHARS = 100;
const RUN_PIECE_CHARS = 64;
/** The character classes of a run: letters and marks, punctuation and symbols, white space (disjoint). */
const RUN_CLASSES = ['[\\p{L}\\p{M}]', '[^\\s\\p{L}\\p{M}\\p{N}]', '\\s'];
// Where a run starts: LONG_RUN_CHARS of one class, a bounded quantifier. An open one (`{100,}`)
// matched over a 10 MB run overflows the regular-expression engine's backtracking stack; the
// rest of a run is taken in bounded steps of its class (RUN_STEP), which ends where `{100,}` did.
const RUN_START_SOURCE = RUN_CLASSES.map((c) => `(${c}{${LONG_RUN_CHARS}})`).join('|');
const RUN_CLASS_OF = RUN_CLASSES.map((c) => new RegExp(`^${c}$`, 'u'));
/** The run class (index in RUN_CLASSES) of one code point, -1 for a number (in no run). */
function runClass(ch: string): number {
  return RUN_CLASS_OF.findIndex((re) => re.test(ch));
}
const ASCII_RUN_CLASS = Int8Array.from({ length: 128 }, (_, c) => runClass(String.fromCharCode(c)));
/** The run class of every other code point seen, by code point (up to 65,536 of them). */
const RUN_CLASS_MEMO = runCache('run classes of code points', () => new Map<number, number>());

/**
 * Whether `text` has a run of LONG_RUN_CHARS code points of one class (what RUN_START_SOURCE
 * finds), in one pass: the regular expression tried a 100-character match at every position,
 * ~2% of a bench's CPU time, nearly all of it on texts with no such run.
 */
export function hasLongRun(text: string): boolean {
  let cls = -1;
  let len = 0;
  let runClassMemo: Map<number, number> | undefined;
  for (let i = 0; i < text.length;) {
    const c = text.charCodeAt(i);
    let k: number;
    if (c < 128) {
      k = ASCII_RUN_CLASS[c]!;
      i++;
    } else {
      const cp = text.codePointAt(i)!;
      runClassMemo ??= cached(RUN_CLASS_MEMO);
      k = runClassMemo.get(cp) ?? -2;
      if (k === -2) {
        k = runClass(String.fromCodePoint(cp));
        if (runClassMemo.size < 65_536) runClassMemo.set(cp, k);
      }
      i += cp > 0xffff ? 2 : 1;
    }
    if (k >= 0 && k === cls) {
      if (++len >= LONG_RUN_CHARS) return true;
    } else {
      cls = k;
      len = 1;
    }
  }
  return false;
}
const RUN_STEP = 4096;
const RUN_MORE = RUN_CLASSES.map((c) => new RegExp(`${c}{1,${RUN_STEP}}`, 'uy'));

/** Each run of LONG_RUN_CHARS or more characters of one class, as [start, end) offsets, in order. */
function longRuns(text: string): [number, number][] {
  const runs: [number, number][] = [];
  const start = new RegExp(RUN_START_SOURCE, 'gu');
  for (let m = start.exec(text); m; m = start.exec(text)) {
    const more = RUN_MORE[m.slice(1).findIndex((g) => g !== undefined)]!;
    let end = m.index + m[0].length;
    for (more.lastIndex = end; more.exec(text); more.lastIndex = end) end = more.lastIndex;
    runs.push([m.index, end]);
    start.lastIndex = end;
  }
  return runs;
}

/** A string that shares no memory with `text` (only paid on a memo miss, next to a BPE encode that costs far more). */
function flatCopy(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** Texts at least this long are counted piecewise at seams (see countBySeams). */
const SPLIT_ABOVE_CHARS = 1_000;

// The rank files of js-tiktoken, one tokenizer at a time (its main entry embeds every
// encoding: 5.6 MB of source in each thread that imports it).
const requireRanks = createRequire(import.meta.url);
function ranksOf(tokenizer: TokenizerName): TiktokenBPE {
  return requireRanks(`js-tiktoken/ranks/${tokenizer}`) as TiktokenBPE;
}

/** The tokenizer's rank table, built once per process and shared by its threads (./rank-table.ts). */
function rankTable(tokenizer: TokenizerName): RankTable {
  return new RankTable(sharedBytes(`rank-table:${tokenizer}`, () => buildRankTable(ranksOf(tokenizer))));
}

/** Distinct pre-tokens remembered per tokenizer at most; then the memo starts over. */
const MAX_PIECES = 500_000;

/**
 * encode(text, [], []).length of js-tiktoken, computed faster and equal to it (test/tokens
 * checks it on the catalogs, the tasks and odd text): the text is split by the tokenizer's own
 * pre-tokenisation pattern (with no special token allowed, encode() treats the whole text as
 * ordinary text, as here), and each pre-token's token count is memoised: a piece is byte-pair
 * encoded once, as js-tiktoken does, however many texts contain it. js-tiktoken re-encodes
 * every piece of every text (a UTF-8 encode and a string key per piece, and a quadratic merge
 * for pieces that are not one token).
 */
function pieceCounter(tokenizer: TokenizerName): (text: string) => number {
  const table = rankTable(tokenizer);
  const pattern = new RegExp(table.pattern, 'gu');
  const sticky = new RegExp(table.pattern, 'yu');
  const utf8 = new TextEncoder();
  let pieces = new Map<string, number>();
  const pieceTokens = (piece: string): number => {
    let n = pieces.get(piece);
    if (n === undefined) {
      n = bytePairCount(utf8.encode(piece), table);
      if (pieces.size >= MAX_PIECES) pieces = new Map();
      pieces.set(flatCopy(piece), n);
    }
    return n;
  };
  /** The pre-tokens from `from` on as matchAll finds them: a character no alternative matches is skipped. */
  const countFrom = (text: string, from: number): number => {
    let total = 0;
    pattern.lastIndex = from;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      if (m[0] === '') pattern.lastIndex++;
      else total += pieceTokens(m[0]);
    }
    return total;
  };
  return (text: string): number => {
    // Pre-tokens follow one another without a gap (every character is in some alternative of
    // both tokenizers' patterns), so each is matched where the last ended, by a sticky test():
    // no match array per pre-token (a fifth faster than matchAll on new text). Where that fails,
    // the rest is counted as matchAll finds it.
    let total = 0;
    sticky.lastIndex = 0;
    for (let at = 0; at < text.length; at = sticky.lastIndex) {
      if (!sticky.test(text) || sticky.lastIndex === at) return total + countFrom(text, at);
      total += pieceTokens(text.slice(at, sticky.lastIndex));
    }
    return total;
  };
}

/**
 * Tokens of one pre-token's bytes under byte-pair encoding: js-tiktoken's bytePairMerge (merge
 * the adjacent pair of lowest rank, the leftmost on ties, until none is a token) and count the
 * parts. Every single byte is a token in cl100k/o200k, so each part is one token.
 */
function bytePairCount(bytes: Uint8Array, table: RankTable): number {
  if (bytes.length <= 1 || table.rank(bytes) !== undefined) return Math.min(1, bytes.length);
  const starts = Array.from(bytes, (_, i) => i);
  const end = (i: number) => (i + 1 < starts.length ? starts[i + 1]! : bytes.length);
  for (;;) {
    let best = -1;
    let bestRank = Infinity;
    for (let i = 0; i + 1 < starts.length; i++) {
      const rank = table.rank(bytes, starts[i]!, end(i + 1));
      if (rank !== undefined && rank < bestRank) [best, bestRank] = [i, rank];
    }
    if (best < 0) return starts.length;
    starts.splice(best + 1, 1);
    if (starts.length === 1) return 1;
  }
}

const RUN_COUNTERS = runCache('token counters by tokenizer', () => new Map<TokenizerName, TokenCounter>());

/** The run's memoised counter for a tokenizer (src/util/run-scope.ts): one per tokenizer for the whole run. */
export function tokenCounter(tokenizer: TokenizerName = DEFAULT_TOKENIZER): TokenCounter {
  const counters = cached(RUN_COUNTERS);
  let c = counters.get(tokenizer);
  if (!c) {
    c = new TokenCounter(tokenizer);
    counters.set(tokenizer, c);
  }
  return c;
}

export function countTokens(text: string, tokenizer: TokenizerName = DEFAULT_TOKENIZER): number {
  return tokenCounter(tokenizer).count(text);
}
