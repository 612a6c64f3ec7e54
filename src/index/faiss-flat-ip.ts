import { loadOptionalNative, type OptionalModule } from './optional-native.ts';
import { checkAdd, checkQuery, compareHits, type SearchHit, type VectorIndex } from './types.ts';

/** The slice of faiss-node's API we use (its own typings are not needed at compile time). */
interface FaissIndexFlatIP {
  ntotal(): number;
  add(x: number[]): void;
  search(x: number[], k: number): { distances: number[]; labels: number[] };
}
export interface FaissModule {
  IndexFlatIP: new (d: number) => FaissIndexFlatIP;
}

/**
 * faiss-node, an optional dependency whose native binding is built by scripts/build-faiss.sh:
 * callers fall back to the exact index when it is absent or unbuilt.
 */
export function loadFaiss(): Promise<OptionalModule<FaissModule>> {
  return loadOptionalNative<FaissModule>(
    'faiss-node',
    (faiss) => {
      if (typeof faiss.IndexFlatIP !== 'function') return 'loaded but has no IndexFlatIP export';
      const probe = new faiss.IndexFlatIP(2);
      probe.add([1, 0, 0, 1]);
      return probe.search([0, 1], 1).labels[0] === 1 ? undefined : 'probe search returned a wrong label';
    },
    '; run scripts/build-faiss.sh to build it',
  );
}

/** Vectors handed to faiss per add call. */
const ADD_SLICE = 512;

/**
 * faiss IndexFlatIP (exhaustive, BLAS-backed). faiss labels are sequential integers, so we keep
 * the id list and map back. faiss's order among equal scores is unspecified, so we widen the
 * search until the k-th score is strictly separated, then sort by (score desc, id asc).
 */
export class FaissFlatIpIndex implements VectorIndex {
  readonly name = 'faiss-flat-ip';
  private ids: string[] = [];
  private idSet = new Set<string>();
  private index: FaissIndexFlatIP;

  constructor(
    faiss: FaissModule,
    readonly dim: number,
  ) {
    this.index = new faiss.IndexFlatIP(dim);
  }

  get size(): number {
    return this.ids.length;
  }

  add(ids: readonly string[], vectors: readonly Float32Array[]): void {
    checkAdd(this.dim, ids, vectors, this.idSet);
    if (ids.length === 0) return;
    // faiss-node takes a plain array of numbers (8 bytes each in V8): passed in slices, so
    // a large catalog's vectors are never all copied at once. faiss appends, so the index is the same.
    for (let start = 0; start < vectors.length; start += ADD_SLICE) {
      const slice = vectors.slice(start, start + ADD_SLICE);
      const flat: number[] = new Array(slice.length * this.dim);
      for (let i = 0; i < slice.length; i++) {
        const v = slice[i]!;
        for (let j = 0; j < this.dim; j++) flat[i * this.dim + j] = v[j]!;
      }
      this.index.add(flat);
    }
    for (const id of ids) {
      this.ids.push(id);
      this.idSet.add(id);
    }
  }

  search(query: Float32Array, k: number): SearchHit[] {
    checkQuery(this.dim, query, k);
    const n = this.ids.length;
    const limit = Math.min(k, n);
    if (limit === 0) return [];
    const q = Array.from(query);
    let want = Math.min(n, limit + 1);
    for (;;) {
      const { distances, labels } = this.index.search(q, want);
      const hits: SearchHit[] = [];
      for (let i = 0; i < want; i++) if (labels[i]! >= 0) hits.push({ id: this.ids[labels[i]!]!, score: distances[i]! });
      hits.sort(compareHits);
      // Done when we have everything, or the last fetched score is below the k-th (no tie crosses the cut).
      if (want === n || hits[want - 1]!.score < hits[limit - 1]!.score) return hits.slice(0, limit);
      want = Math.min(n, want * 2);
    }
  }
}
