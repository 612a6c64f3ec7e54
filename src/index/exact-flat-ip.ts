import { topHits } from './top-hits.ts';
import { checkAdd, checkQuery, type SearchHit, type VectorIndex } from './types.ts';

/**
 * Exhaustive inner-product search in plain TypeScript. It is the reference implementation
 * (the other indexes must agree with it) and the fallback when neither native/sgemm nor
 * faiss-node is built. It sums in double precision and rounds each score to float32, so a
 * score may differ from theirs in its last bit (they sum in float32). It is exact, not
 * fast: ~10 ms a query over 4,000 512-d vectors on a busy 2-core machine (faiss: ~3 ms), which
 * is still small next to encoding the query.
 */
export class ExactFlatIpIndex implements VectorIndex {
  readonly name = 'exact-flat-ip';
  private ids: string[] = [];
  private idSet = new Set<string>();
  // One contiguous buffer (row-major), grown by doubling, so the scan stays cache-friendly.
  private data: Float32Array;

  constructor(readonly dim: number) {
    if (!Number.isInteger(dim) || dim <= 0) throw new Error(`exact-flat-ip: dimension must be a positive integer, got ${dim}`);
    this.data = new Float32Array(dim * 64);
  }

  get size(): number {
    return this.ids.length;
  }

  add(ids: readonly string[], vectors: readonly Float32Array[]): void {
    checkAdd(this.dim, ids, vectors, this.idSet);
    const needed = (this.ids.length + ids.length) * this.dim;
    if (needed > this.data.length) {
      const grown = new Float32Array(Math.max(needed, this.data.length * 2));
      grown.set(this.data.subarray(0, this.ids.length * this.dim));
      this.data = grown;
    }
    for (let i = 0; i < ids.length; i++) {
      this.data.set(vectors[i]!, this.ids.length * this.dim);
      this.ids.push(ids[i]!);
      this.idSet.add(ids[i]!);
    }
  }

  search(query: Float32Array, k: number): SearchHit[] {
    checkQuery(this.dim, query, k);
    const n = this.ids.length;
    const limit = Math.min(k, n);
    if (limit === 0) return [];
    const scores = new Float64Array(n);
    const d = this.dim;
    const data = this.data;
    for (let row = 0; row < n; row++) {
      let s = 0;
      const off = row * d;
      for (let j = 0; j < d; j++) s += data[off + j]! * query[j]!;
      // Round to float32 like faiss does, so both indexes see the same ties.
      scores[row] = Math.fround(s);
    }
    return topHits(scores, this.ids, limit);
  }
}
