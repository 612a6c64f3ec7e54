import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bootstrapMean, bootstrapMeanPair, quantile } from '../../src/stats/bootstrap.ts';

describe('bootstrapMean', () => {
  it('gives the mean and a 95% interval close to the normal-theory one on known data', () => {
    // 0..99: mean 49.5, sd 29.01, standard error of the mean 2.90 → ±1.96·SE ≈ ±5.69.
    const values = Array.from({ length: 100 }, (_, i) => i);
    const e = bootstrapMean(values, 42, 4000);
    expect(e.mean).toBe(49.5);
    expect(e.n).toBe(100);
    expect(e.low).toBeGreaterThan(49.5 - 5.69 - 0.8);
    expect(e.low).toBeLessThan(49.5 - 5.69 + 0.8);
    expect(e.high).toBeGreaterThan(49.5 + 5.69 - 0.8);
    expect(e.high).toBeLessThan(49.5 + 5.69 + 0.8);
  });

  it('collapses to the value for constant data and is reproducible by seed', () => {
    expect(bootstrapMean([7, 7, 7, 7], 1)).toEqual({ mean: 7, low: 7, high: 7, n: 4 });
    const xs = Array.from({ length: 50 }, (_, i) => Math.sin(i) * 10 + i / 7);
    expect(bootstrapMean(xs, 42)).toEqual(bootstrapMean(xs, 42));
    expect(bootstrapMean(xs, 42)).not.toEqual(bootstrapMean(xs, 43));
  });

  it('returns NaN bounds for no data and interpolates quantiles', () => {
    expect(bootstrapMean([]).n).toBe(0);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
  });
});

describe('bootstrapMeanPair', () => {
  it('is two bootstrapMean calls with the same seed, bit for bit, for any columns of one length', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ noNaN: true, min: -1e6, max: 1e6 }), fc.integer({ min: 0, max: 50_000 })), { maxLength: 300 }),
        fc.integer(),
        (rows, seed) => {
          const x = rows.map((r) => r[0]);
          const y = rows.map((r) => r[1]);
          expect(bootstrapMeanPair(x, y, seed, 200)).toEqual([bootstrapMean(x, seed, 200), bootstrapMean(y, seed, 200)]);
        },
      ),
      { numRuns: 100 },
    );
    expect(() => bootstrapMeanPair([1, 2], [1], 42)).toThrow(/different lengths/);
  });
});
