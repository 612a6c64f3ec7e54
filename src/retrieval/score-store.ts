import type { FittedRetriever } from './types.ts';

/**
 * Where a fitted retriever's scores are kept by query text: in memory (memoryScoreStore) or on
 * disk (the learned reranker's). A query's scores never depend on the others in its batch, so
 * a kept array serves every later ask. The arrays are shared: read-only.
 */
export interface ScoreStore {
  get(query: string): Float64Array | undefined;
  set(query: string, scores: Float64Array): void;
}

/** `fitted` scoring each distinct query once: kept queries come from the store, the others in one batch, then kept. */
export function withScoreStore(fitted: FittedRetriever, store: ScoreStore): FittedRetriever {
  return {
    ids: fitted.ids,
    async score(queries) {
      // Read before anything is kept: a bounded store may start over while keeping the new ones.
      const kept = queries.map((q) => store.get(q));
      const missing = [...new Set(queries.filter((_, i) => kept[i] === undefined))];
      const fresh = new Map<string, Float64Array>();
      if (missing.length) {
        const scores = await fitted.score(missing);
        missing.forEach((q, i) => {
          fresh.set(q, scores[i]!);
          store.set(q, scores[i]!);
        });
      }
      return queries.map((q, i) => kept[i] ?? fresh.get(q)!);
    },
  };
}

/** Scores in memory up to `maxNumbers` numbers in all, then the store starts over. */
export function memoryScoreStore(maxNumbers: number): ScoreStore {
  let memo = new Map<string, Float64Array>();
  let held = 0;
  return {
    get: (query) => memo.get(query),
    set(query, scores) {
      if (held + scores.length > maxNumbers) [memo, held] = [new Map(), 0];
      memo.set(query, scores);
      held += scores.length;
    },
  };
}
