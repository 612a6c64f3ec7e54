import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sweepThreshold, type LabelledScore } from '../../src/embed/threshold.ts';

describe('threshold sweep', () => {
  // Relevant tools score 0.9, 0.7, 0.45; irrelevant 0.6, 0.3, 0.2, 0.1.
  const pairs: LabelledScore[] = [
    { score: 0.9, relevant: true },
    { score: 0.7, relevant: true },
    { score: 0.45, relevant: true },
    { score: 0.6, relevant: false },
    { score: 0.3, relevant: false },
    { score: 0.2, relevant: false },
    { score: 0.1, relevant: false },
  ];

  it('sweeps 0..1 in 0.01 steps with exact θ values', () => {
    const { points } = sweepThreshold(pairs);
    expect(points).toHaveLength(101);
    expect(points[0]!.theta).toBe(0);
    expect(points[30]!.theta).toBe(0.3);
    expect(points[100]!.theta).toBe(1);
  });

  it('computes precision, recall and F1 of score ≥ θ', () => {
    const at = (theta: number) => sweepThreshold(pairs).points.find((p) => p.theta === theta)!;
    expect(at(0.3)).toMatchObject({ tp: 3, fp: 2, fn: 0, tn: 2, precision: 0.6, recall: 1 }); // 0.3 itself is selected
    expect(at(0.3).f1).toBeCloseTo(0.75, 12);
    expect(at(0.95)).toMatchObject({ tp: 0, fp: 0, precision: 0, recall: 0, f1: 0 });
  });

  it('picks the F1 maximum, and the lowest θ among ties', () => {
    // θ in (0.30, 0.45] selects {0.9, 0.7, 0.45, 0.6}: P = 3/4, R = 1, F1 = 6/7 — the best.
    const { best } = sweepThreshold(pairs);
    expect(best.theta).toBe(0.31);
    expect(best.f1).toBeCloseTo(6 / 7, 12);
  });

  it('supports a coarser step', () => {
    const sweep = sweepThreshold(pairs, 0.25);
    expect(sweep.points.map((p) => p.theta)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(sweep.best.theta).toBe(0.25);
  });

  it('rejects bad input', () => {
    expect(() => sweepThreshold(pairs, 0)).toThrow(/step/);
    expect(() => sweepThreshold([{ score: Number.NaN, relevant: true }])).toThrow(/non-finite/);
  });

  it('property: best has the maximal F1 and no lower θ reaches it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ score: fc.double({ min: -1, max: 1, noNaN: true }), relevant: fc.boolean() }), { maxLength: 40 }),
        (ps) => {
          const { points, best } = sweepThreshold(ps);
          const max = Math.max(...points.map((p) => p.f1));
          expect(best.f1).toBe(max);
          expect(points.find((p) => p.f1 === max)!.theta).toBe(best.theta);
          for (const p of points) expect(p.tp + p.fp + p.fn + p.tn).toBe(ps.length);
        },
      ),
    );
  });
});
