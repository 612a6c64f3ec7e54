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
    // Four vectors at a time: four independent sums, each added in dot's order (the same bits),
    // which the CPU overlaps instead of waiting on one chain of additions.
    const d = query.length;
    let i = 0;
    for (; i + 4 <= vectors.length; i += 4) {
      const a = vectors[i]!;
      const b = vectors[i + 1]!;
      const c = vectors[i + 2]!;
      const e = vectors[i + 3]!;
      if (a.length !== d || b.length !== d || c.length !== d || e.length !== d)
        throw new Error(`dot: dimension mismatch ${d} vs ${[a, b, c, e].find((v) => v.length !== d)!.length}`);
      let sa = 0;
      let sb = 0;
      let sc = 0;
      let se = 0;
      for (let j = 0; j < d; j++) {
        const q = query[j]!;
        sa += q * a[j]!;
        sb += q * b[j]!;
        sc += q * c[j]!;
        se += q * e[j]!;
      }
      out[i] = Math.fround(sa);
      out[i + 1] = Math.fround(sb);
      out[i + 2] = Math.fround(sc);
      out[i + 3] = Math.fround(se);
    }
    for (; i < vectors.length; i++) out[i] = Math.fround(dot(query, vectors[i]!));
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
