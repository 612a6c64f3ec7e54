/** One search hit: the caller's id and the inner product with the query. */
export interface SearchHit {
  id: string;
  score: number;
}

/**
 * A maximum-inner-product index over unit vectors (so score = cosine similarity).
 * Results are sorted by score descending, ties broken by id ascending, so that runs are
 * reproducible whichever implementation served them.
 */
export interface VectorIndex {
  /** `faiss-flat-ip` or `exact-flat-ip`; recorded in results. */
  readonly name: string;
  readonly dim: number;
  readonly size: number;
  add(ids: readonly string[], vectors: readonly Float32Array[]): void;
  search(query: Float32Array, k: number): SearchHit[];
}

/** Shared argument checks so both implementations fail the same way. */
export function checkAdd(dim: number, ids: readonly string[], vectors: readonly Float32Array[], known: ReadonlySet<string>): void {
  if (ids.length !== vectors.length) throw new Error(`index.add: ${ids.length} ids but ${vectors.length} vectors`);
  const seen = new Set<string>();
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    if (known.has(id) || seen.has(id)) throw new Error(`index.add: duplicate id ${JSON.stringify(id)}`);
    seen.add(id);
    if (vectors[i]!.length !== dim)
      throw new Error(`index.add: vector for ${JSON.stringify(id)} has dimension ${vectors[i]!.length}, index has ${dim}`);
  }
}

export function checkQuery(dim: number, query: Float32Array, k: number): void {
  if (query.length !== dim) throw new Error(`index.search: query has dimension ${query.length}, index has ${dim}`);
  if (!Number.isInteger(k) || k < 0) throw new Error(`index.search: k must be a non-negative integer, got ${k}`);
}

/** Score descending, then id ascending (code-unit order, locale-independent). */
export function compareHits(a: SearchHit, b: SearchHit): number {
  if (a.score !== b.score) return b.score - a.score;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
