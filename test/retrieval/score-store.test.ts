import { readdirSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { diskScoreStore, flushDiskScores, withScoreStore, type ScoreStore } from '../../src/retrieval/score-store.ts';
import type { FittedRetriever } from '../../src/retrieval/types.ts';
import { makeTempDir } from '../helpers/temp.ts';

/** A fitted retriever over two tools whose scores are a function of the query text, counting what it is asked. */
function countingRetriever(): FittedRetriever & { asked: string[] } {
  const asked: string[] = [];
  return {
    ids: ['a', 'b'],
    asked,
    async score(queries) {
      asked.push(...queries);
      return queries.map((q) => Float64Array.of(q.length, -q.length));
    },
  };
}

/** A test stand-in for the disk store: the same contract over a Map. */
function mapStore(): ScoreStore {
  const kept = new Map<string, Float64Array>();
  return { get: (q) => kept.get(q), set: (q, scores) => void kept.set(q, scores) };
}

describe('withScoreStore', () => {
  it('scores each distinct query once and returns what the retriever would', async () => {
    const inner = countingRetriever();
    const memo = withScoreStore(inner, mapStore());
    const first = await memo.score(['ab', 'abc', 'ab']);
    expect(first.map((s) => [...s])).toEqual([
      [2, -2],
      [3, -3],
      [2, -2],
    ]);
    expect(inner.asked).toEqual(['ab', 'abc']);
    const again = await memo.score(['abc', 'abcd']);
    expect(again[0]).toBe(first[1]); // the kept array
    expect([...again[1]!]).toEqual([4, -4]);
    expect(inner.asked).toEqual(['ab', 'abc', 'abcd']);
  });
});

/** V8's collector, for a test of what is kept alive (the flag, then a fresh context that sees `gc`). */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

describe('diskScoreStore', () => {
  it('writes its scores when flushed, and only once', () => {
    const dir = makeTempDir();
    const store = diskScoreStore(dir, 2);
    store.set('query', Float64Array.of(1, 2));
    expect(readdirSync(dir)).toEqual([]);
    flushDiskScores();
    const written = readdirSync(dir);
    expect(written.length).toBeGreaterThan(0);
    flushDiskScores();
    expect(readdirSync(dir)).toEqual(written);
    expect([...diskScoreStore(dir, 2).get('query')!]).toEqual([1, 2]);
  });

  it('is not kept once its scores are written (a run lets go of its stores)', async () => {
    const gc = collector();
    let collected = false;
    const registry = new FinalizationRegistry(() => (collected = true));
    (() => {
      const store = diskScoreStore(makeTempDir(), 2);
      store.set('query', Float64Array.of(1, 2));
      flushDiskScores();
      // What the store holds once written: the scores as read from their segment.
      registry.register(store.get('query')!, 'scores');
    })();
    for (let i = 0; i < 20 && !collected; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(collected).toBe(true);
  });
});
