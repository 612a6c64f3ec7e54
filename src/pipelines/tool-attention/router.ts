import type { SearchHit, VectorIndex } from '../../index/types.ts';
import type { StateGate } from './preconditions.ts';

// Intent–Schema Overlap (paper §4.2 eq. 5): cosine similarity between the query embedding and
// the tool summary's embedding. Encoders return unit vectors, so it is their dot product,
// rounded to float32 as the vector indexes return it (cosineScores in src/embed/vector.ts).

export interface RouteOptions {
  /** Tools promoted at most (top-k by ISO score). */
  k: number;
  /** ISO threshold θ: tools scoring below it are never candidates. */
  theta: number;
  /** Precondition gate for the current state; absent = ISO only. */
  gate?: StateGate;
}

export interface RouteResult {
  /** Tools with ISO ≥ θ that the router examined, best first (until k were accepted). */
  candidates: SearchHit[];
  /** Candidates rejected by the state gate, with the unmet preconditions. */
  gatedOut: { tool: string; unmet: string[] }[];
  /** A_t: the promoted tools, best first, at most k. */
  active: SearchHit[];
}

/**
 * The intent router (Algorithm 1 lines 1–4; Appendix A.1): walk the tools by descending ISO
 * score, stop at the first score below θ, skip tools whose preconditions fail, accept until k.
 * The index is asked for a slate of max(4k, 20) hits (as the reference code) and the slate is
 * widened when it runs out before the walk ends, so the result equals a scan of every tool.
 */
export class IntentRouter {
  constructor(private readonly index: VectorIndex) {}

  route(query: Float32Array, options: RouteOptions): RouteResult {
    const { k } = options;
    if (!Number.isInteger(k) || k < 0) throw new Error(`router: k must be a non-negative integer, got ${k}`);
    const n = this.index.size;
    if (k === 0 || n === 0) return { candidates: [], gatedOut: [], active: [] };
    let want = Math.min(n, Math.max(4 * k, 20));
    for (;;) {
      const { result, ended } = walk(this.index.search(query, want), options);
      if (ended || result.active.length === k || want === n) return result;
      want = Math.min(n, want * 2);
    }
  }
}

/**
 * The same walk over a complete ranking another retriever produced (scores already on the θ
 * scale, src/retrieval/task-rankings.ts), for Tool Attention on a retriever other than the
 * encoder's cosine.
 */
export function routeRanking(ranking: Iterable<SearchHit>, options: RouteOptions): RouteResult {
  if (!Number.isInteger(options.k) || options.k < 0) throw new Error(`router: k must be a non-negative integer, got ${options.k}`);
  if (options.k === 0) return { candidates: [], gatedOut: [], active: [] };
  return walk(ranking, options).result;
}

function walk(slate: Iterable<SearchHit>, { k, theta, gate }: RouteOptions): { result: RouteResult; ended: boolean } {
  const result: RouteResult = { candidates: [], gatedOut: [], active: [] };
  for (const hit of slate) {
    if (hit.score < theta || result.active.length === k) return { result, ended: true };
    result.candidates.push(hit);
    const unmet = gate ? gate(hit.id) : [];
    if (unmet.length) result.gatedOut.push({ tool: hit.id, unmet });
    else result.active.push(hit);
  }
  return { result, ended: false };
}
