import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quantileSorted } from '../../src/stats/bootstrap.ts';
import { quantilesOf } from '../../src/stats/select-quantiles.ts';

const bySorting = (values: Float64Array, qs: readonly number[]) => {
  const sorted = values.slice().sort();
  return qs.map((q) => quantileSorted(sorted, q));
};

describe('quantilesOf (selection instead of a sort)', () => {
  it('gives the same bits as sorting, for any values and quantiles in any order', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(fc.double({ noNaN: true }), { maxLength: 300 }),
          // Many ties, and runs long enough for several partitioning rounds.
          fc.array(fc.integer({ min: -3, max: 3 }), { maxLength: 2000 }),
          fc.array(fc.double({ min: 0.01, max: 60, noNaN: true }), { minLength: 500, maxLength: 3000 }),
        ),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 4 }),
        (values, qs) => {
          const a = Float64Array.from(values);
          const before = a.slice();
          const got = quantilesOf(a, qs);
          const want = bySorting(a, qs);
          got.forEach((g, i) => expect(Object.is(g, want[i])).toBe(true));
          expect(a).toEqual(before); // the input is left as it was
        },
      ),
      { numRuns: 300 },
    );
  });

  it('sorts and ascending or descending runs, NaN and -0 give what sorting gives', () => {
    const ascending = Float64Array.from({ length: 5000 }, (_, i) => i / 7);
    const descending = ascending.slice().reverse();
    for (const a of [ascending, descending]) expect(quantilesOf(a, [0.5, 0.95, 0, 1])).toEqual(bySorting(a, [0.5, 0.95, 0, 1]));
    const odd = Float64Array.of(3, NaN, -0, 0, 1);
    quantilesOf(odd, [0, 0.25, 0.5, 1]).forEach((g, i) => expect(Object.is(g, bySorting(odd, [0, 0.25, 0.5, 1])[i])).toBe(true));
    expect(quantilesOf(new Float64Array(0), [0.5])).toEqual([NaN]);
  });
});
