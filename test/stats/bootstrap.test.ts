import { describe, expect, it } from 'vitest';
import { bootstrapMean, quantile } from '../../src/stats/bootstrap.ts';

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
