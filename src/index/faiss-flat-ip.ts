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

export type FaissLoad = { ok: true; faiss: FaissModule; version: string } | { ok: false; reason: string };

let loaded: Promise<FaissLoad> | undefined;

/**
 * Import the optional faiss-node package once per process. It is an optional dependency
 * whose native binding is built by scripts/build-faiss.sh, so it may be absent or unbuilt;
 * either way we return the reason instead of throwing, and callers fall back to the exact index.
 */
export function loadFaiss(): Promise<FaissLoad> {
  loaded ??= (async (): Promise<FaissLoad> => {
    try {
      // A variable specifier keeps tsc from requiring the package (or its types) at compile time.
      const specifier = 'faiss-node';
      const mod = (await import(specifier)) as { default?: FaissModule } & Partial<FaissModule>;
      const faiss = (mod.default ?? mod) as FaissModule;
      if (typeof faiss.IndexFlatIP !== 'function') return { ok: false, reason: 'faiss-node loaded but has no IndexFlatIP export' };
      // Probe once: a binding built against the wrong library can load yet fail on first use.
      const probe = new faiss.IndexFlatIP(2);
      probe.add([1, 0, 0, 1]);
      if (probe.search([0, 1], 1).labels[0] !== 1) return { ok: false, reason: 'faiss-node probe search returned a wrong label' };
      let version = 'unknown';
      try {
        const { createRequire } = await import('node:module');
        version = (createRequire(import.meta.url)('faiss-node/package.json') as { version: string }).version;
      } catch {
        // The version is only for reports.
      }
      return { ok: true, faiss, version };
    } catch (err) {
      const msg = err instanceof Error ? err.message.split('\n')[0]! : String(err);
      return { ok: false, reason: `faiss-node not usable (${msg}); run scripts/build-faiss.sh to build it` };
    }
  })();
  return loaded;
}

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
    const flat: number[] = new Array(ids.length * this.dim);
    for (let i = 0; i < vectors.length; i++) {
      const v = vectors[i]!;
      for (let j = 0; j < this.dim; j++) flat[i * this.dim + j] = v[j]!;
    }
    this.index.add(flat);
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
