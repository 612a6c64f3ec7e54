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

/**
 * dot(query, v) rounded to float32 (as the vector indexes return scores) for every v, equal bit
 * for bit to computing each alone. A sparse query (TF-IDF: a handful of its 512 entries are
 * non-zero) visits only its non-zero entries, in order: a skipped product is an exact zero,
 * which leaves a sum that started at +0 unchanged. Written into `out` when given (every entry).
 */
export function cosineScores(
  query: Float32Array,
  vectors: readonly Float32Array[],
  out: Float64Array = new Float64Array(vectors.length),
): Float64Array {
  const nonZero: number[] = [];
  for (let j = 0; j < query.length; j++) if (query[j] !== 0) nonZero.push(j);
  if (nonZero.length * 4 >= query.length) {
    for (let i = 0; i < vectors.length; i++) out[i] = Math.fround(dot(query, vectors[i]!));
    return out;
  }
  for (let i = 0; i < vectors.length; i++) {
    const v = vectors[i]!;
    if (v.length !== query.length) throw new Error(`dot: dimension mismatch ${query.length} vs ${v.length}`);
    let s = 0;
    for (const j of nonZero) s += query[j]! * v[j]!;
    out[i] = Math.fround(s);
  }
  return out;
}
