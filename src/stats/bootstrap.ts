import { Rng } from '../util/rng.ts';

export interface Estimate {
  mean: number;
  /** 95% percentile-bootstrap interval of the mean. */
  low: number;
  high: number;
  n: number;
}

/**
 * Mean with a percentile bootstrap 95% interval, resampling with a seeded generator so the
 * interval is reproducible.
 */
export function bootstrapMean(values: readonly number[], seed = 42, resamples = 1000): Estimate {
  const n = values.length;
  if (n === 0) return { mean: NaN, low: NaN, high: NaN, n: 0 };
  // Resampling draws n × resamples indices with Mulberry32, a tiny 32-bit generator stepped in
  // the loop (drawnIndex), seeded from the Rng stream, so the interval is reproducible.
  let a = generatorState(seed);
  const data = Float64Array.from(values);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) {
      a = (a + 0x6d2b79f5) >>> 0;
      s += data[drawnIndex(a, n)]!;
    }
    means[r] = s / n;
  }
  return estimate(values, means);
}

/**
 * bootstrapMean of two columns of one length with one seed, bit for bit as two calls: both
 * calls would draw the same indexes, so they are drawn once (a pipeline's summary resamples
 * every turn a thousand times for two statistics: drawing once halves that work).
 */
export function bootstrapMeanPair(first: readonly number[], second: readonly number[], seed = 42, resamples = 1000): [Estimate, Estimate] {
  const n = first.length;
  if (second.length !== n) throw new Error('bootstrapMeanPair: columns of different lengths');
  if (n === 0) return [bootstrapMean(first, seed, resamples), bootstrapMean(second, seed, resamples)];
  // bootstrapMean's generator, seeded the same way, drawing the same indexes in the same order.
  let a = generatorState(seed);
  const x = Float64Array.from(first);
  const y = Float64Array.from(second);
  const meansX = new Float64Array(resamples);
  const meansY = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sx = 0;
    let sy = 0;
    for (let i = 0; i < n; i++) {
      a = (a + 0x6d2b79f5) >>> 0;
      const at = drawnIndex(a, n);
      sx += x[at]!;
      sy += y[at]!;
    }
    meansX[r] = sx / n;
    meansY[r] = sy / n;
  }
  return [estimate(first, meansX), estimate(second, meansY)];
}

/** The resampling generator's first state for a seed (both loops start from it). */
function generatorState(seed: number): number {
  return Math.floor(new Rng(seed, 'bootstrap').next() * 2 ** 32) >>> 0;
}

/** The mean of `values` and the 95% percentile interval of their resampled means (sorted here). */
function estimate(values: readonly number[], means: Float64Array): Estimate {
  means.sort();
  const n = values.length;
  return { mean: values.reduce((p, q) => p + q, 0) / n, low: quantileSorted(means, 0.025), high: quantileSorted(means, 0.975), n };
}

/**
 * Mulberry32's output for state `a`, as an index below n: the one home of the generator of
 * both loops. As a call it costs a little more than written out in the loop, which the pair loop
 * saves many times over.
 */
function drawnIndex(a: number, n: number): number {
  let t = a;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
}

/** Linear-interpolated quantile of an ascending array. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

export function quantile(values: readonly number[], q: number): number {
  return quantileSorted(
    [...values].sort((a, b) => a - b),
    q,
  );
}

/** The sum from 0 in index order over the count; NaN when empty. Takes arrays and typed arrays alike. */
export function mean(values: ArrayLike<number>): number {
  if (!values.length) return NaN;
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  return sum / values.length;
}
