import type { CatalogTool } from '../catalog/types.ts';
import type { FittedRetriever, Retriever } from './types.ts';

/**
 * Requests that name several steps ("read the sheet, plot it by month and save it to …"): the
 * request is split into its clauses (sentences, `;`, and `, and` / `, then` / ` then `
 * joints), each clause is ranked on its own beside the whole request, and a tool's score is
 * its best over them, so a step that the whole request drowns still brings its tool up. On a
 * probability or cosine scale the scores compare as they are; unbounded scores (BM25, fusion)
 * are divided by each list's best first.
 */
export function createClauseRetriever(name: string, base: Retriever): Retriever {
  return {
    name,
    description: `${base.name}, best score over the whole request and each of its clauses`,
    toolText: base.toolText,
    scale: base.scale === 'unbounded' ? 'probability' : base.scale,
    fittedOn: base.fittedOn,
    minTools: base.minTools,
    async fit(tools: readonly CatalogTool[]): Promise<FittedRetriever> {
      const fitted = await base.fit(tools);
      return {
        ids: fitted.ids,
        fittedOn: fitted.fittedOn,
        async score(queries) {
          const parts = queries.map((q) => [q, ...requestClauses(q)]);
          const scored = await fitted.score(parts.flat());
          let next = 0;
          return parts.map((p) => {
            const lists = scored.slice(next, (next += p.length)).map((s) => (base.scale === 'unbounded' ? byBest(s) : s));
            const out = Float64Array.from(lists[0]!);
            for (const list of lists.slice(1)) for (let i = 0; i < out.length; i++) if (list[i]! > out[i]!) out[i] = list[i]!;
            return out;
          });
        },
      };
    },
  };
}

/** Clauses of at least MIN_WORDS words; none when the request is one clause. */
export function requestClauses(request: string): string[] {
  const parts = request
    .split(/(?<=[.!?;])\s+|,\s+(?:and|then)\s+|\s+(?:and )?then\s+/i)
    .map((s) => s.trim())
    .filter((s) => s.split(/\s+/).length >= MIN_WORDS);
  return parts.length > 1 ? parts : [];
}

const MIN_WORDS = 3;

function byBest(scores: Float64Array): Float64Array {
  let best = 0;
  for (const s of scores) best = Math.max(best, s);
  return best > 0 ? Float64Array.from(scores, (s) => s / best) : scores;
}
