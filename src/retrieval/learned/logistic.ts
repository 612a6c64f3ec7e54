/**
 * Logistic regression fitted by Newton's method (iteratively reweighted least squares) from
 * zero weights with L2 regularisation: no random initialisation, no shuffling, a fixed order of
 * sums, so the same examples give the same weights bit for bit. With nine features a Newton step
 * is a 10 × 10 solve; it converges in a handful of passes where gradient descent needs hundreds.
 * Features are standardised with the training mean and standard deviation, stored with the model.
 */
export interface LogisticModel {
  features: readonly string[];
  mean: number[];
  std: number[];
  weights: number[];
  bias: number;
  /** Training summary, for the record. */
  examples: number;
  positives: number;
  iterations: number;
  finalLoss: number;
}

export interface TrainOptions {
  maxIterations?: number;
  /** L2 penalty on the weights (not the bias), per unit of example weight. */
  l2?: number;
  /** Weight of a positive example (the classes are very unbalanced: one tool in dozens is needed). */
  positiveWeight?: number;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Solve A x = b (A symmetric positive definite, small) by Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r]![n]!;
    for (let k = r + 1; k < n; k++) s -= m[r]![k]! * x[k]!;
    x[r] = s / m[r]![r]!;
  }
  return x;
}

/**
 * Fits the model on `y.length` examples: `x` holds their feature rows one after another
 * (row-major, `features.length` values a row), `y` their labels (1 = needed).
 */
export function trainLogistic(
  features: readonly string[],
  x: Float64Array,
  y: readonly number[],
  options: TrainOptions = {},
): LogisticModel {
  const maxIterations = options.maxIterations ?? 50;
  const l2 = options.l2 ?? 1e-3;
  const n = y.length;
  const d = features.length;
  if (n === 0) throw new Error('trainLogistic: no training examples');
  if (x.length !== n * d) throw new Error(`trainLogistic: expected ${n} rows of ${d} features (${n * d} numbers), got ${x.length}`);
  const positives = y.filter((v) => v === 1).length;
  const posWeight = options.positiveWeight ?? (positives > 0 ? Math.min(20, (n - positives) / positives) : 1);
  const mean = new Array<number>(d).fill(0);
  const std = new Array<number>(d).fill(0);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) mean[j]! += x[i * d + j]! / n;
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) std[j]! += (x[i * d + j]! - mean[j]!) ** 2 / n;
  for (let j = 0; j < d; j++) std[j] = Math.sqrt(std[j]!) || 1;
  // Standardised rows with a trailing 1 for the bias, row-major like x.
  const width = d + 1;
  const z = new Float64Array(n * width);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < d; j++) z[i * width + j] = (x[i * d + j]! - mean[j]!) / std[j]!;
    z[i * width + d] = 1;
  }
  const totalWeight = y.reduce((s, v) => s + (v === 1 ? posWeight : 1), 0);
  const lambda = l2 * totalWeight;
  const w = new Array<number>(d + 1).fill(0);
  let iterations = 0;
  let loss = 0;
  for (; iterations < maxIterations; iterations++) {
    const g = new Array<number>(d + 1).fill(0);
    const h = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    loss = 0;
    for (let i = 0; i < n; i++) {
      const o = i * width; // the row's first value in z
      let s = 0;
      for (let j = 0; j <= d; j++) s += w[j]! * z[o + j]!;
      const p = sigmoid(s);
      const weight = y[i] === 1 ? posWeight : 1;
      const err = (p - y[i]!) * weight;
      const curv = p * (1 - p) * weight;
      for (let j = 0; j <= d; j++) {
        g[j]! += err * z[o + j]!;
        for (let k = 0; k <= j; k++) h[j]![k]! += curv * z[o + j]! * z[o + k]!;
      }
      loss -= weight * (y[i] === 1 ? Math.log(p + 1e-12) : Math.log(1 - p + 1e-12));
    }
    for (let j = 0; j <= d; j++) for (let k = j + 1; k <= d; k++) h[j]![k] = h[k]![j]!;
    for (let j = 0; j < d; j++) {
      g[j]! += lambda * w[j]!;
      h[j]![j]! += lambda;
    }
    const step = solve(h, g);
    let largest = 0;
    for (let j = 0; j <= d; j++) {
      w[j]! -= step[j]!;
      largest = Math.max(largest, Math.abs(step[j]!));
    }
    if (largest < 1e-9) {
      iterations++;
      break;
    }
  }
  return { features, mean, std, weights: w.slice(0, d), bias: w[d]!, examples: n, positives, iterations, finalLoss: loss / totalWeight };
}

/** P(needed | features). */
export function predict(model: LogisticModel, row: Float64Array): number {
  let s = model.bias;
  for (let j = 0; j < row.length; j++) s += model.weights[j]! * ((row[j]! - model.mean[j]!) / model.std[j]!);
  return sigmoid(s);
}
