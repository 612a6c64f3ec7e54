import { loadOptionalNative, type OptionalModule } from './optional-native.ts';
import { checkAdd, checkQuery, compareHits, type SearchHit, type VectorIndex } from './types.ts';

/** The slice of hnswlib-node's API we use. */
interface HnswModule {
  HierarchicalNSW: new (
    space: 'ip',
    dim: number,
  ) => {
    initIndex(maxElements: number, m: number, efConstruction: number, randomSeed: number): void;
    resizeIndex(maxElements: number): void;
    getMaxElements(): number;
    addPoint(point: number[], label: number): void;
    setEf(ef: number): void;
    searchKnn(point: number[], k: number): { distances: number[]; neighbors: number[] };
  };
}

/** hnswlib-node, an optional dependency built from its bundled sources at install (node-gyp). */
export function loadHnsw(): Promise<OptionalModule<HnswModule>> {
  return loadOptionalNative<HnswModule>('hnswlib-node', (hnsw) =>
    typeof hnsw.HierarchicalNSW === 'function' ? undefined : 'loaded but has no HierarchicalNSW export',
  );
}

/** HNSW graph parameters (hnswlib's defaults M = 16, efConstruction = 200) and the search beam. */
export const HNSW_PARAMS = { m: 16, efConstruction: 200, efSearch: 64, seed: 42 } as const;

/**
 * An approximate maximum-inner-product index: hnswlib's HNSW graph, whose search visits about
 * log N nodes instead of all N (the flat indexes). Approximate: it can miss a true top-k tool
 * (recall is measured against the exact index in `npm run perf`), so the bench's measured
 * pipelines keep the exact indexes; this one shows what routing costs as N grows. Scores are
 * 1 − hnswlib's inner-product distance. Deterministic: fixed seed, insertion in call order, one
 * thread.
 */
export class HnswIpIndex implements VectorIndex {
  readonly name = 'hnsw-ip';
  private ids: string[] = [];
  private idSet = new Set<string>();
  /** Search beam (hnswlib's ef): recall against the exact index rises with it, and so does the cost of a query (`npm run perf` shows both). */
  efSearch: number = HNSW_PARAMS.efSearch;
  private readonly index: InstanceType<HnswModule['HierarchicalNSW']>;

  constructor(
    hnsw: HnswModule,
    readonly dim: number,
  ) {
    this.index = new hnsw.HierarchicalNSW('ip', dim);
    this.index.initIndex(64, HNSW_PARAMS.m, HNSW_PARAMS.efConstruction, HNSW_PARAMS.seed);
  }

  get size(): number {
    return this.ids.length;
  }

  add(ids: readonly string[], vectors: readonly Float32Array[]): void {
    checkAdd(this.dim, ids, vectors, this.idSet);
    const needed = this.ids.length + ids.length;
    if (needed > this.index.getMaxElements()) this.index.resizeIndex(Math.max(needed, 2 * this.index.getMaxElements()));
    ids.forEach((id, i) => {
      this.index.addPoint(Array.from(vectors[i]!), this.ids.length);
      this.ids.push(id);
      this.idSet.add(id);
    });
  }

  search(query: Float32Array, k: number): SearchHit[] {
    checkQuery(this.dim, query, k);
    const limit = Math.min(k, this.ids.length);
    if (limit === 0) return [];
    this.index.setEf(Math.max(this.efSearch, limit));
    const { distances, neighbors } = this.index.searchKnn(Array.from(query), limit);
    return neighbors.map((n, i) => ({ id: this.ids[n]!, score: 1 - distances[i]! })).sort(compareHits);
  }
}
