import { createRequire } from 'node:module';
import type { TiktokenBPE } from 'js-tiktoken/lite';
import { describe, expect, it } from 'vitest';
import { TokenCounter } from '../../src/tokens/counter.ts';
import { buildRankTable, RankTable } from '../../src/tokens/rank-table.ts';
import { startTsWorker } from '../../src/util/ts-worker.ts';

const ranksOf = (name: string) => createRequire(import.meta.url)(`js-tiktoken/ranks/${name}`) as TiktokenBPE;

/** Every token of a rank file with its rank, as js-tiktoken's constructor reads them (a later duplicate wins). */
function tokensOf(ranks: TiktokenBPE): Map<string, number> {
  const map = new Map<string, number>();
  for (const line of ranks.bpe_ranks.split('\n')) {
    if (!line) continue;
    const [, first, ...encoded] = line.split(' ');
    encoded.forEach((t, i) => map.set(Buffer.from(t, 'base64').toString('latin1'), Number(first) + i));
  }
  return map;
}

describe('RankTable', () => {
  for (const name of ['cl100k_base', 'o200k_base']) {
    it(`finds every token of ${name} at its rank, and its pattern`, () => {
      const ranks = ranksOf(name);
      const table = new RankTable(buildRankTable(ranks));
      const tokens = tokensOf(ranks);
      let wrong = 0;
      for (const [key, rank] of tokens) if (table.rank(Buffer.from(key, 'latin1')) !== rank) wrong++;
      expect(wrong).toBe(0);
      expect(table.pattern).toBe(ranks.pat_str);
      // Far smaller than a Map of the tokens (~10 / ~20 MB of heap).
      expect(table.bytes.byteLength).toBeLessThan(tokens.size * 30);
    });
  }

  it('finds nothing for bytes that are no token, and looks up a range of bytes where it lies', () => {
    const ranks = ranksOf('cl100k_base');
    const table = new RankTable(buildRankTable(ranks));
    const tokens = tokensOf(ranks);
    const text = Buffer.from(' hello world, zzqxjv tokenisation ', 'utf8');
    let checked = 0;
    for (let from = 0; from < text.length; from++)
      for (let to = from + 1; to <= text.length; to++) {
        expect(table.rank(text, from, to)).toBe(tokens.get(text.subarray(from, to).toString('latin1')));
        checked++;
      }
    expect(checked).toBeGreaterThan(500);
    expect(table.rank(Buffer.from('zzqxjvzzqxjv'))).toBeUndefined();
  });

  it('keeps the later rank of a token listed twice, as js-tiktoken does', () => {
    const b64 = (s: string) => Buffer.from(s, 'latin1').toString('base64');
    const bpe: TiktokenBPE = {
      pat_str: '\\S+',
      special_tokens: {},
      bpe_ranks: `! 0 ${b64('a')} ${b64('b')} ${b64('ab')}\n! 3 ${b64('ab')}`,
    };
    const table = new RankTable(buildRankTable(bpe));
    expect([table.rank(Buffer.from('a')), table.rank(Buffer.from('b')), table.rank(Buffer.from('ab'))]).toEqual([0, 1, 3]);
  });

  it('is shared with a worker thread, which does not build its own', async () => {
    // A table in which only single bytes are tokens, under cl100k's key: a worker that used it
    // counts one token per byte; one that built its own would count "hello" as one token.
    const b64 = (n: number) => Buffer.from([n]).toString('base64');
    const bytesOnly = buildRankTable({
      ...ranksOf('cl100k_base'),
      bpe_ranks: `! 0 ${Array.from({ length: 256 }, (_, n) => b64(n)).join(' ')}`,
    });
    expect(new TokenCounter('cl100k_base').count('hello')).toBe(1);
    const worker = await startTsWorker(new URL('./fixtures/rank-table-worker.ts', import.meta.url), {
      shared: new Map([['rank-table:cl100k_base', bytesOnly]]),
      text: 'hello',
    });
    const got = await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject));
    await worker.terminate();
    expect(got).toBe(5);
  });
});
