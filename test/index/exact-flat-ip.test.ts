import { describe, expect, it } from 'vitest';
import { ExactFlatIpIndex } from '../../src/index/exact-flat-ip.ts';

const v = (...xs: number[]) => Float32Array.from(xs);

describe('exact-flat-ip index', () => {
  it('sorts by inner product, descending', () => {
    const ix = new ExactFlatIpIndex(2);
    ix.add(['a', 'b', 'c'], [v(1, 0), v(0, 1), v(0.6, 0.8)]);
    expect(ix.search(v(1, 0), 3)).toEqual([
      { id: 'a', score: 1 },
      { id: 'c', score: Math.fround(0.6) },
      { id: 'b', score: 0 },
    ]);
    expect(ix.name).toBe('exact-flat-ip');
    expect(ix.size).toBe(3);
  });

  it('breaks ties by id, whatever the insertion order, including at the k cut', () => {
    const ix = new ExactFlatIpIndex(2);
    ix.add(['z', 'm', 'a', 'top'], [v(0, 1), v(0, 1), v(0, 1), v(1, 1)]);
    expect(ix.search(v(0, 1), 4).map((h) => h.id)).toEqual(['a', 'm', 'top', 'z']);
    expect(ix.search(v(1, 0), 2).map((h) => h.id)).toEqual(['top', 'a']);
  });

  it('returns at most n hits, none for k = 0, and grows past its initial capacity', () => {
    const ix = new ExactFlatIpIndex(3);
    expect(ix.search(v(1, 0, 0), 5)).toEqual([]);
    const ids = Array.from({ length: 200 }, (_, i) => `t${String(i).padStart(3, '0')}`);
    ix.add(
      ids,
      ids.map((_, i) => v(i, 1, 0)),
    );
    expect(ix.search(v(1, 0, 0), 0)).toEqual([]);
    expect(ix.search(v(1, 0, 0), 3).map((h) => h.id)).toEqual(['t199', 't198', 't197']);
    expect(ix.search(v(0, 1, 0), 1000)).toHaveLength(200);
  });

  it('rejects duplicate ids and wrong dimensions', () => {
    const ix = new ExactFlatIpIndex(2);
    ix.add(['a'], [v(1, 0)]);
    expect(() => ix.add(['a'], [v(0, 1)])).toThrow(/duplicate id "a"/);
    expect(() => ix.add(['b', 'b'], [v(0, 1), v(1, 0)])).toThrow(/duplicate id "b"/);
    expect(() => ix.add(['c'], [v(1, 0, 0)])).toThrow(/dimension 3/);
    expect(() => ix.add(['c', 'd'], [v(1, 0)])).toThrow(/2 ids but 1 vectors/);
    expect(() => ix.search(v(1), 1)).toThrow(/query has dimension 1/);
    expect(() => ix.search(v(1, 0), -1)).toThrow(/non-negative integer/);
    expect(ix.size).toBe(1);
  });
});
