import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rankOf, rankOrder } from '../../src/retrieval/rank-order.ts';

const byComparator = (scores: Float64Array) => Array.from(scores, (_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b);

describe('rankOrder', () => {
  it('is the order of the comparator sort (best first, ties in index order), for any scores', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(fc.double({ noNaN: true }), { maxLength: 200 }),
          // Many ties, ±0 and infinities, across several merge rounds.
          fc.array(fc.constantFrom(0, -0, 1, 0.5, -2, Infinity, -Infinity), { maxLength: 600 }),
          fc.array(fc.float({ noNaN: true }).map(Math.fround), { minLength: 100, maxLength: 1200 }),
        ),
        (values) => {
          const scores = Float64Array.from(values);
          expect([...rankOrder(scores)]).toEqual(byComparator(scores));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps the comparator sort when a score is NaN, and handles no tools', () => {
    const scores = Float64Array.of(0.2, NaN, 0.9, 0.2, NaN, 1);
    expect([...rankOrder(scores)]).toEqual(byComparator(scores));
    expect(rankOrder(new Float64Array(0))).toHaveLength(0);
  });

  it('holds indexes in the narrowest array: 16 bits up to 65,536 tools, 32 above (the same order)', () => {
    const scores = (n: number) => Float64Array.from({ length: n }, (_, i) => ((i * 7919) % 1000) / 1000);
    const small = scores(65_536);
    const large = scores(70_001);
    expect(rankOrder(small)).toBeInstanceOf(Uint16Array);
    expect(rankOrder(large)).toBeInstanceOf(Uint32Array);
    expect([...rankOrder(large)]).toEqual(byComparator(large));
    // After a larger ranking, a smaller one still sorts right (the scratch arrays are reused).
    expect([...rankOrder(small)]).toEqual(byComparator(small));
  });
});

describe('rankOf', () => {
  it('gives each index the 1-based rank rankOrder gives it (ties in index order, -0 tied with 0), for any scores', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(0, -0, 1, 0.5, -2, Infinity, -Infinity, 0.25), { minLength: 1, maxLength: 300 }), (values) => {
        const scores = Float64Array.from(values);
        rankOrder(scores).forEach((i, r) => expect(rankOf(scores, i)).toBe(r + 1));
      }),
      { seed: 42, numRuns: 200 },
    );
  });

  it('is undefined when a score is NaN (only sorting reproduces that order)', () => {
    expect(rankOf(Float64Array.from([1, NaN, 0]), 0)).toBeUndefined();
  });
});
