import type { TiktokenBPE } from 'js-tiktoken/lite';

/**
 * A tokenizer's byte-pair ranks and pre-tokenisation pattern in one flat buffer, looked up by a
 * range of bytes: an open-addressing hash table (FNV-1a, linear probing) over typed arrays.
 *
 * Why not a Map keyed by the token's bytes as a string (as before): the Map of cl100k's 100k
 * tokens took 9.5 MB of heap and o200k's 200k 15.6 MB (heap used before and after, with
 * --expose-gc), in every thread that counts tokens, and every major GC walked them; each lookup
 * built a string key. This buffer is 2.4 MB (cl100k) and 4.9 MB (o200k), built in about half the
 * time, a SharedArrayBuffer that every thread of the process reads (../util/process-shared.ts),
 * and a lookup hashes the bytes where they lie.
 *
 * Layout (Int32 words, then bytes): [count, slots, patternBytes, poolBytes] | starts (count + 1:
 * where each token's bytes begin in the pool) | ranks (count) | table (slots: token index + 1,
 * 0 = empty) | pattern (UTF-8) | pool (every token's bytes, in order).
 */
export class RankTable {
  private readonly starts: Int32Array;
  private readonly ranks: Int32Array;
  private readonly table: Int32Array;
  private readonly pool: Uint8Array;
  /** The tokenizer's pre-tokenisation pattern (js-tiktoken's pat_str). */
  readonly pattern: string;

  constructor(readonly bytes: SharedArrayBuffer | ArrayBuffer) {
    const [count, slots, patternBytes, poolBytes] = new Int32Array(bytes, 0, HEADER_WORDS) as unknown as [number, number, number, number];
    let at = HEADER_WORDS * 4;
    const words = (n: number) => {
      const view = new Int32Array(bytes, at, n);
      at += n * 4;
      return view;
    };
    this.starts = words(count + 1);
    this.ranks = words(count);
    this.table = words(slots);
    this.pattern = Buffer.from(bytes, at, patternBytes).toString('utf8');
    at += patternBytes;
    this.pool = new Uint8Array(bytes, at, poolBytes);
  }

  /** The rank of the token whose bytes are `bytes[from, to)`, or undefined when they are not a token. */
  rank(bytes: Uint8Array, from = 0, to = bytes.length): number | undefined {
    const entry = this.entry(bytes, from, to);
    return entry < 0 ? undefined : this.ranks[entry];
  }

  /** The index of the token whose bytes are `bytes[from, to)`, or -1. */
  entry(bytes: Uint8Array, from: number, to: number): number {
    const { starts, table, pool } = this;
    const length = to - from;
    const mask = table.length - 1;
    for (let slot = fnv1a(bytes, from, to) & mask; ; slot = (slot + 1) & mask) {
      const entry = table[slot]!;
      if (entry === 0) return -1;
      const start = starts[entry - 1]!;
      if (starts[entry]! - start !== length) continue;
      let i = 0;
      while (i < length && pool[start + i] === bytes[from + i]) i++;
      if (i === length) return entry - 1;
    }
  }
}

const HEADER_WORDS = 4;

/** FNV-1a over bytes[from, to), as a signed 32-bit integer. */
function fnv1a(bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = from; i < to; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h;
}

/**
 * The table of js-tiktoken's rank file, parsed as its constructor parses it (each line:
 * `! <first rank> <token base64>...`; a later duplicate token wins there and here), in a
 * SharedArrayBuffer. Tokens are decoded straight into the pool.
 */
export function buildRankTable(ranks: TiktokenBPE): SharedArrayBuffer {
  const lines: { first: number; tokens: string[] }[] = [];
  let count = 0;
  let poolBytes = 0;
  for (const line of ranks.bpe_ranks.split('\n')) {
    if (!line) continue;
    const [, first, ...tokens] = line.split(' ');
    lines.push({ first: Number.parseInt(first!, 10), tokens });
    count += tokens.length;
    for (const t of tokens) poolBytes += Buffer.byteLength(t, 'base64');
  }
  let slots = 1;
  while (slots < 2 * count) slots *= 2; // load factor at most 1/2: short probes
  const pattern = Buffer.from(ranks.pat_str, 'utf8');
  const wordBytes = (HEADER_WORDS + count + 1 + count + slots) * 4;
  const bytes = new SharedArrayBuffer(wordBytes + pattern.length + poolBytes);
  new Int32Array(bytes, 0, HEADER_WORDS).set([count, slots, pattern.length, poolBytes]);
  const starts = new Int32Array(bytes, HEADER_WORDS * 4, count + 1);
  const rankOf = new Int32Array(bytes, (HEADER_WORDS + count + 1) * 4, count);
  const table = new Int32Array(bytes, (HEADER_WORDS + 2 * count + 1) * 4, slots);
  Buffer.from(bytes, wordBytes, pattern.length).set(pattern);
  const pool = Buffer.from(bytes, wordBytes + pattern.length, poolBytes);
  const found = new RankTable(bytes);
  let entry = 0;
  let at = 0;
  for (const { first, tokens } of lines)
    tokens.forEach((token, i) => {
      const length = pool.write(token, at, 'base64');
      starts[entry] = at;
      starts[entry + 1] = at + length;
      rankOf[entry] = first + i;
      const known = found.entry(pool, at, at + length);
      if (known >= 0)
        rankOf[known] = first + i; // a duplicate: its bytes stay unused in the pool
      else {
        let slot = fnv1a(pool, at, at + length) & (slots - 1);
        while (table[slot] !== 0) slot = (slot + 1) & (slots - 1);
        table[slot] = entry + 1;
      }
      at += length;
      entry++;
    });
  return bytes;
}
