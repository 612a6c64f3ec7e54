/** Small vector helpers shared by the encoders, the cache and the indexes. */

/**
 * Scale a vector to unit length in place and return it. A zero vector stays zero (a text with
 * no known word has no direction; dividing would give NaN and poison every dot product).
 */
export function l2Normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  if (sum === 0) return v;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i]! *= inv;
  return v;
}

/** Dot product; for unit vectors this is the cosine similarity. */
export function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new Error(`dot: dimension mismatch ${a.length} vs ${b.length}`);
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Euclidean length. */
export function norm(v: Float32Array): number {
  return Math.sqrt(dot(v, v));
}
