import { describe, expect, it } from 'vitest';
import { memoryScoreStore, withScoreStore } from '../../src/retrieval/score-store.ts';
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

describe('withScoreStore', () => {
  it('scores each distinct query once and returns what the retriever would', async () => {
    const inner = countingRetriever();
    const memo = withScoreStore(inner, memoryScoreStore(1_000));
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

  it('answers right when a bounded store starts over in the middle of a batch', async () => {
    const inner = countingRetriever();
    const memo = withScoreStore(inner, memoryScoreStore(4)); // two queries' scores at most
    await memo.score(['a', 'bb']);
    const scores = await memo.score(['a', 'ccc', 'dddd', 'bb']);
    expect(scores.map((s) => s[0])).toEqual([1, 3, 4, 2]);
    expect(inner.asked).toEqual(['a', 'bb', 'ccc', 'dddd']);
    await memo.score(['a']); // forgotten when the store started over
    expect(inner.asked.at(-1)).toBe('a');
  });
});
