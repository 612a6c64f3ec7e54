import type { ThresholdPoint } from '../results/pipeline-settings.ts';

export type { ThresholdPoint } from '../results/pipeline-settings.ts';
/** One labelled similarity: the router's score for a (query, tool) pair and whether the tool is relevant. */
export interface LabelledScore {
  score: number;
  relevant: boolean;
}

export interface ThresholdSweep {
  step: number;
  points: ThresholdPoint[];
  /** Highest F1; among equal F1 the lowest θ (keeping more tools is the safer error). */
  best: ThresholdPoint;
}

/**
 * Calibrate the gating threshold θ: for θ = 0, step, 2·step, … ≤ 1, select pairs with
 * score ≥ θ and score the selection against the labels. Pure; θ values are rounded to 10
 * decimals so 0.3 is 0.3 and not 0.30000000000000004.
 */
export function sweepThreshold(pairs: readonly LabelledScore[], step = 0.01): ThresholdSweep {
  if (!(step > 0 && step <= 1)) throw new Error(`sweepThreshold: step must be in (0, 1], got ${step}`);
  for (const [i, p] of pairs.entries()) {
    if (!Number.isFinite(p.score)) throw new Error(`sweepThreshold: pair ${i} has a non-finite score ${p.score}`);
  }
  const n = Math.floor(1 / step + 1e-9);
  const thetas = Array.from({ length: n + 1 }, (_, i) => Number((i * step).toFixed(10)));
  // One pass over the pairs: bucket b of a score = how many θ are ≤ it, so the pair is selected
  // exactly at θ index i < b; selected counts are then suffix sums (pairs × log θs, not pairs × θs).
  const allIn = new Float64Array(n + 2);
  const relevantIn = new Float64Array(n + 2);
  for (const p of pairs) {
    let lo = 0;
    let hi = thetas.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (thetas[mid]! <= p.score) lo = mid + 1;
      else hi = mid;
    }
    allIn[lo]++;
    if (p.relevant) relevantIn[lo]++;
  }
  let positives = 0;
  for (const r of relevantIn) positives += r;
  const points: ThresholdPoint[] = new Array(n + 1);
  let tp = 0;
  let selected = 0;
  for (let i = n; i >= 0; i--) {
    tp += relevantIn[i + 1]!;
    selected += allIn[i + 1]!;
    const fp = selected - tp;
    const fn = positives - tp;
    const tn = pairs.length - positives - fp;
    // F1 from counts (not from the rounded precision/recall) so equal F1s compare equal.
    points[i] = {
      theta: thetas[i]!,
      tp,
      fp,
      fn,
      tn,
      precision: tp + fp === 0 ? 0 : tp / (tp + fp),
      recall: positives === 0 ? 0 : tp / positives,
      f1: tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn),
    };
  }
  let best = points[0]!;
  for (const p of points) if (p.f1 > best.f1) best = p;
  return { step, points, best };
}
