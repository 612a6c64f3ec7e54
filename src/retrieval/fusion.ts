import type { CatalogTool } from '../catalog/types.ts';
import { minToolsOf, type FittedRetriever, type Retriever } from './types.ts';
import { rankOrder } from './rank-order.ts';

/** Reciprocal-rank fusion constant (Cormack et al. 2009: k = 60). */
export const RRF_K = 60;

/** 1-based ranks of scores (higher score → rank 1; ties in catalog order, as rankScores). */
export function ranksOf(scores: Float64Array): Int32Array {
  const order = rankOrder(scores);
  const ranks = new Int32Array(scores.length);
  order.forEach((i, r) => (ranks[i] = r + 1));
  return ranks;
}

/** Reciprocal-rank fusion: Σ_r 1 / (k + rank_r(tool)). */
export function rrfFuse(lists: readonly Float64Array[], k = RRF_K): Float64Array {
  const out = new Float64Array(lists[0]?.length ?? 0);
  for (const scores of lists) {
    const ranks = ranksOf(scores);
    for (let i = 0; i < out.length; i++) out[i]! += 1 / (k + ranks[i]!);
  }
  return out;
}

/** Normalised-score fusion: Σ_r w_r · minMax(scores_r), min–max normalisation to [0, 1] per query (a constant list adds 0). */
export function normFuse(lists: readonly Float64Array[], weights: readonly number[]): Float64Array {
  const out = new Float64Array(lists[0]?.length ?? 0);
  lists.forEach((scores, r) => {
    let lo = Infinity;
    let hi = -Infinity;
    for (const s of scores) {
      if (s < lo) lo = s;
      if (s > hi) hi = s;
    }
    const span = hi - lo;
    // Added in place: a normalised copy per list and query was most of a fused query's garbage.
    if (span > 0) for (let i = 0; i < out.length; i++) out[i]! += weights[r]! * ((scores[i]! - lo) / span);
  });
  return out;
}

export type FusionMethod = { kind: 'rrf'; k: number } | { kind: 'norm'; weights: readonly number[] };

/** A retriever fusing the scores of others, fitted on the same tools. */
export function createFusionRetriever(name: string, parts: readonly Retriever[], method: FusionMethod): Retriever {
  const how =
    method.kind === 'rrf'
      ? `reciprocal-rank fusion (k = ${method.k})`
      : `min–max normalised score fusion (weights ${method.weights.join('/')})`;
  return {
    name,
    description: `${how} of ${parts.map((p) => p.name).join(' + ')}`,
    toolText: parts.map((p) => `${p.name}: ${p.toolText}`).join('; '),
    scale: 'unbounded',
    // What its fitted parts were fitted on (none for a fusion of untrained retrievers).
    fittedOn: fittedOnOf(parts.map((p) => p.fittedOn)),
    minTools: minToolsOf(parts),
    async fit(tools: readonly CatalogTool[]): Promise<FittedRetriever> {
      const fitted = await Promise.all(parts.map((p) => p.fit(tools)));
      return {
        ids: fitted[0]!.ids,
        fittedOn: fittedOnOf(fitted.map((f) => f.fittedOn)),
        async score(queries) {
          const each = await Promise.all(fitted.map((f) => f.score(queries)));
          return queries.map((_, q) => {
            const lists = each.map((s) => s[q]!);
            return method.kind === 'rrf' ? rrfFuse(lists, method.k) : normFuse(lists, method.weights);
          });
        },
      };
    },
  };
}

function fittedOnOf(parts: readonly (string | undefined)[]): string | undefined {
  const distinct = [...new Set(parts.filter((p): p is string => p !== undefined))];
  return distinct.length ? distinct.join('; ') : undefined;
}
