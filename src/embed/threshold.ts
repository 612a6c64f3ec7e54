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
  const histogram = new ThresholdHistogram(step);
  for (const p of pairs) histogram.add(p.score, p.relevant);
  return histogram.sweep();
}

/**
 * sweepThreshold fed one pair at a time: only how many pairs, and how many relevant ones, fall
 * between each two θs are kept, never the pairs (a 10,000-tool catalog's calibration has ~1.5 M
 * of them, which as objects took ~60 MB of heap at once).
 */
export class ThresholdHistogram {
  private readonly thetas: number[];
  // Bucket b of a score = how many θ are ≤ it, so the pair is selected exactly at θ index i < b;
  // selected counts are then suffix sums (pairs × log θs, not pairs × θs).
  private readonly allIn: Float64Array;
  private readonly relevantIn: Float64Array;
  /** Pairs added, and how many of them are relevant. */
  pairs = 0;
  positives = 0;

  constructor(readonly step = 0.01) {
    if (!(step > 0 && step <= 1)) throw new Error(`sweepThreshold: step must be in (0, 1], got ${step}`);
    const n = Math.floor(1 / step + 1e-9);
    this.thetas = Array.from({ length: n + 1 }, (_, i) => Number((i * step).toFixed(10)));
    this.allIn = new Float64Array(n + 2);
    this.relevantIn = new Float64Array(n + 2);
  }

  add(score: number, relevant: boolean): void {
    if (!Number.isFinite(score)) throw new Error(`sweepThreshold: pair ${this.pairs} has a non-finite score ${score}`);
    const { thetas } = this;
    let lo = 0;
    let hi = thetas.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (thetas[mid]! <= score) lo = mid + 1;
      else hi = mid;
    }
    this.allIn[lo]++;
    this.pairs++;
    if (relevant) {
      this.relevantIn[lo]++;
      this.positives++;
    }
  }

  sweep(): ThresholdSweep {
    const { thetas, allIn, relevantIn, positives } = this;
    const n = thetas.length - 1;
    const points: ThresholdPoint[] = new Array(n + 1);
    let tp = 0;
    let selected = 0;
    for (let i = n; i >= 0; i--) {
      tp += relevantIn[i + 1]!;
      selected += allIn[i + 1]!;
      const fp = selected - tp;
      const fn = positives - tp;
      const tn = this.pairs - positives - fp;
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
    return { step: this.step, points, best };
  }
}
