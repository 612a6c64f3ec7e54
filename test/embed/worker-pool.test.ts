import { describe, expect, it } from 'vitest';
import { createUseLiteEncoder } from '../../src/embed/use-lite.ts';
import { existsSync, readdirSync } from 'node:fs';
import { dealByCost, embedWorkerCount, releaseEmbedWorkers, withEmbedWorkers } from '../../src/embed/worker-pool.ts';

describe('use-lite embedding worker pool', () => {
  it('deals texts longest first to the least-loaded worker, every text once', () => {
    const texts = ['aaaaaaaa', 'b', 'cccc', 'dd', 'eeeeee', 'f'];
    const shares = dealByCost(texts, 2);
    // 8 → w0; 6 → w1; 4 → w1 (6 < 8); 2 → w0 (8 < 10); then 1 and 1 on a 10–10 tie: w0 first, then w1.
    expect(shares).toEqual([
      [0, 3, 1],
      [4, 2, 5],
    ]);
    expect(shares.flat().sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('reads TOOLTAX_EMBED_WORKERS, with a one-line error for a bad value', () => {
    expect(embedWorkerCount({})).toBe(2);
    expect(embedWorkerCount({ TOOLTAX_EMBED_WORKERS: '0' })).toBe(0);
    expect(() => embedWorkerCount({ TOOLTAX_EMBED_WORKERS: 'two' })).toThrow(
      /TOOLTAX_EMBED_WORKERS: expected an integer from 0 to 64, got "two"/,
    );
  });

  it('gives the same vectors from two worker threads as from this thread', async () => {
    const local = await createUseLiteEncoder();
    const pooled = withEmbedWorkers(local, 2);
    expect(pooled.name).toBe(local.name);
    expect(pooled.description).toBe(local.description);
    // Enough texts to go to the workers (small calls stay in this thread), of mixed lengths.
    const texts = Array.from(
      { length: 60 },
      (_, i) => `${['list', 'create', 'delete'][i % 3]} item ${i}${' with more words'.repeat(i % 7)}`,
    );
    const fromWorkers = await pooled.embed(texts);
    const fromThread = await local.embed(texts);
    expect(fromWorkers.map((v) => Array.from(v))).toEqual(fromThread.map((v) => Array.from(v)));
  });
});

describe('use-lite embedding worker pool, calls under way together', () => {
  it('keeps its workers while any call is under way (a call that outlasts the idle time after another ended)', async () => {
    const local = await createUseLiteEncoder();
    const pooled = withEmbedWorkers(local, 2, {}, { idleMs: 20 });
    const short = Array.from({ length: 48 }, (_, i) => `send message ${i}`);
    // Far longer than the 20 ms idle time that starts when the short call ends.
    const long = Array.from({ length: 120 }, (_, i) => `create an issue titled number ${i} in the repository of the team`);
    // The short call is queued first in each worker, so it ends first.
    const [b, a] = await Promise.all([pooled.embed(short), pooled.embed(long)]);
    expect(a).toHaveLength(long.length);
    expect(b).toHaveLength(short.length);
  });
});

describe('releaseEmbedWorkers', () => {
  it('ends idle workers now (not after their idle time), leaves a call under way alone, and a later call starts them again', async () => {
    const local = await createUseLiteEncoder();
    const pooled = withEmbedWorkers(local, 2, {}, { idleMs: 60_000 });
    const texts = Array.from({ length: 60 }, (_, i) => `list open pull requests number ${i}`);
    const threads = () => (existsSync('/proc/self/task') ? readdirSync('/proc/self/task').length : undefined);
    await releaseEmbedWorkers(); // the other tests' pools, so that only this one's threads come and go
    const before = threads();
    const first = pooled.embed(texts);
    await releaseEmbedWorkers(); // a call is under way: nothing ends under it
    const vectors = await first;
    const withWorkers = threads();
    await releaseEmbedWorkers();
    if (before !== undefined) {
      expect(withWorkers!).toBeGreaterThan(before);
      expect(threads()!).toBeLessThan(withWorkers!); // ended now, not in 60 s
    }
    expect((await pooled.embed(texts)).map((v) => Array.from(v))).toEqual(vectors.map((v) => Array.from(v)));
    await releaseEmbedWorkers();
    // Two workers each load the model: no tighter bound than the suite's, so a slow or busy CPU passes too.
  });
});
