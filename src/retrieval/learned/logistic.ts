/**
 * Logistic regression trained by full-batch gradient descent from zero weights, a fixed number
 * of epochs and L2 regularisation: no random initialisation and no shuffling, so the same
 * examples give the same weights bit for bit. Features are standardised with the training
 * mean and standard deviation, stored with the model.
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
  epochs: number;
  finalLoss: number;
}

export interface TrainOptions {
  epochs?: number;
  learningRate?: number;
  l2?: number;
  /** Weight of a positive example (the classes are very unbalanced: one tool in dozens is needed). */
  positiveWeight?: number;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

export function trainLogistic(
  features: readonly string[],
  x: readonly Float64Array[],
  y: readonly number[],
  options: TrainOptions = {},
): LogisticModel {
  const epochs = options.epochs ?? 400;
  const lr = options.learningRate ?? 0.5;
  const l2 = options.l2 ?? 1e-3;
  const n = x.length;
  const d = features.length;
  if (n === 0) throw new Error('trainLogistic: no training examples');
  const positives = y.filter((v) => v === 1).length;
  const posWeight = options.positiveWeight ?? (positives > 0 ? Math.min(20, (n - positives) / positives) : 1);
  const mean = new Array<number>(d).fill(0);
  const std = new Array<number>(d).fill(0);
  for (const row of x) for (let j = 0; j < d; j++) mean[j]! += row[j]! / n;
  for (const row of x) for (let j = 0; j < d; j++) std[j]! += (row[j]! - mean[j]!) ** 2 / n;
  for (let j = 0; j < d; j++) std[j] = Math.sqrt(std[j]!) || 1;
  const z = x.map((row) => Float64Array.from(row, (v, j) => (v - mean[j]!) / std[j]!));
  const w = new Float64Array(d);
  let b = 0;
  let loss = 0;
  const totalWeight = y.reduce((s, v) => s + (v === 1 ? posWeight : 1), 0);
  for (let epoch = 0; epoch < epochs; epoch++) {
    const gw = new Float64Array(d);
    let gb = 0;
    loss = 0;
    for (let i = 0; i < n; i++) {
      const row = z[i]!;
      let s = b;
      for (let j = 0; j < d; j++) s += w[j]! * row[j]!;
      const p = sigmoid(s);
      const weight = y[i] === 1 ? posWeight : 1;
      const err = (p - y[i]!) * weight;
      for (let j = 0; j < d; j++) gw[j]! += err * row[j]!;
      gb += err;
      loss -= weight * (y[i] === 1 ? Math.log(p + 1e-12) : Math.log(1 - p + 1e-12));
    }
    for (let j = 0; j < d; j++) w[j]! -= lr * (gw[j]! / totalWeight + l2 * w[j]!);
    b -= (lr * gb) / totalWeight;
  }
  return { features, mean, std, weights: [...w], bias: b, examples: n, positives, epochs, finalLoss: loss / totalWeight };
}

/** P(needed | features). */
export function predict(model: LogisticModel, row: Float64Array): number {
  let s = model.bias;
  for (let j = 0; j < row.length; j++) s += model.weights[j]! * ((row[j]! - model.mean[j]!) / model.std[j]!);
  return sigmoid(s);
}
