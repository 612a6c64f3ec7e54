import { describe, expect, it } from 'vitest';
import { withScoreStore, type ScoreStore } from '../../src/retrieval/score-store.ts';
import type { FittedRetriever } from '../../src/retrieval/types.ts';

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
