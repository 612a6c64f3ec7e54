import { describe, expect, it } from 'vitest';
import { Ranking } from '../../src/retrieval/types.ts';

describe('Ranking', () => {
  const ids = ['a', 'b', 'c', 'd'];
  const ranking = new Ranking(ids, Float64Array.of(0.2, 0.9, 0.2, -1));

  it('reads best first, ties in catalog order', () => {
    expect([...ranking]).toEqual([
      { id: 'b', score: 0.9 },
      { id: 'a', score: 0.2 },
      { id: 'c', score: 0.2 },
      { id: 'd', score: -1 },
    ]);
  });

  it('top(k) is the first k of the ranking, all of it when k exceeds the catalog', () => {
    expect(ranking.top(2)).toEqual([...ranking].slice(0, 2));
    expect(ranking.top(0)).toEqual([]);
    expect(ranking.top(10)).toEqual([...ranking]);
  });
});
