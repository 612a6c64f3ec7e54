import { describe, expect, it } from 'vitest';
import { normFuse, ranksOf, rrfFuse } from '../../src/retrieval/fusion.ts';

describe('fusion arithmetic', () => {
  it('ranks: highest score first, ties in catalog order', () => {
    expect([...ranksOf(Float64Array.of(0.2, 0.9, 0.2, 0.5))]).toEqual([3, 1, 4, 2]);
  });

  it('reciprocal-rank fusion sums 1 / (k + rank)', () => {
    const fused = rrfFuse([Float64Array.of(3, 2, 1), Float64Array.of(1, 2, 3)], 60);
    expect(fused[0]).toBeCloseTo(1 / 61 + 1 / 63, 15);
    expect(fused[1]).toBeCloseTo(2 / 62, 15);
    expect(fused[2]).toBeCloseTo(1 / 63 + 1 / 61, 15);
  });

  it('min–max normalises to [0, 1]; a constant list becomes 0', () => {
    expect([...normFuse([Float64Array.of(2, 4, 3)], [1])]).toEqual([0, 1, 0.5]);
    expect([...normFuse([Float64Array.of(7, 7)], [1])]).toEqual([0, 0]);
  });

  it('normalised-score fusion weights each normalised list', () => {
    const fused = normFuse([Float64Array.of(0, 10, 5), Float64Array.of(1, 0, 0.5)], [0.75, 0.25]);
    expect([...fused]).toEqual([0.25, 0.75, 0.5]);
  });
});
