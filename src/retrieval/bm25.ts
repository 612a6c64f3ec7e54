import MiniSearch from 'minisearch';
import type { CatalogTool } from '../catalog/types.ts';
import { analyze } from './tokenize.ts';
import { describeFields, TOOL_FIELDS, toolFields, type ToolField, type ToolFields } from './tool-fields.ts';
import type { FittedRetriever, Retriever } from './types.ts';

/**
 * Field weights of the BM25 retrievers: a word of the tool name says most about what it does;
 * parameter names say what it acts on; parameter descriptions are long and generic. Chosen
 * from that reasoning and checked on the synthetic calibration tasks, not on tasks/real.
 */
export const BM25_FIELD_WEIGHTS: Readonly<Record<ToolField, number>> = {
  name: 3,
  server: 1,
  description: 1,
  parameters: 1.5,
  parameterDescriptions: 0.5,
};

export interface Bm25Options {
  name?: string;
  /** Developer-vocabulary expansion on both sides (default true). */
  vocabulary?: boolean;
  /** Entity-cue words on the query side (default true). */
  entityCues?: boolean;
  /** Field weights (default BM25_FIELD_WEIGHTS); all 1 for a flat document. */
  weights?: Readonly<Record<ToolField, number>>;
}

/**
 * BM25 over the tool's weighted fields (./tool-fields.ts) on MiniSearch. Of the three BM25
 * libraries installed, MiniSearch was chosen (scripts/bench-retrieval.ts, README "Choosing a
 * retriever"): it has per-field boosts, takes our analyzer for documents and queries, is
 * maintained, typed, and ranks a query in well under a millisecond; wink-bm25-text-search
 * ranks about as well but needs ≥ 3 documents and ships no types; okapibm25 has no fields and
 * re-scans every document with regular expressions on each query (`bm25:okapi`, kept to compare).
 * MiniSearch scores with BM25+ (k1 = 1.2, b = 0.7, δ = 0.5, its defaults); a tool sharing no
 * term with the query scores 0.
 */
export function createBm25Retriever(options: Bm25Options = {}): Retriever {
  const weights = options.weights ?? BM25_FIELD_WEIGHTS;
  const vocabulary = options.vocabulary ?? true;
  const entityCues = options.entityCues ?? true;
  const fields = TOOL_FIELDS.filter((f) => weights[f] > 0);
  return {
    name: options.name ?? 'bm25',
    description: `BM25+ (MiniSearch), fields ${describeFields(weights)}${vocabulary ? ', developer vocabulary' : ''}${entityCues ? ', entity cues' : ''}`,
    toolText: describeFields(weights),
    scale: 'unbounded',
    async fit(tools: readonly CatalogTool[]): Promise<FittedRetriever> {
      const index = new MiniSearch<ToolFields & { id: number }>({
        fields: [...fields],
        idField: 'id',
        // Documents are analyzed here; queries arrive analyzed (terms joined by spaces).
        tokenize: (text, field) => (field ? analyze(text, { vocabulary }) : text.split(' ').filter(Boolean)),
        processTerm: (term) => term,
        searchOptions: { boost: Object.fromEntries(fields.map((f) => [f, weights[f]])), combineWith: 'OR' },
      });
      index.addAll(tools.map((t, id) => ({ id, ...toolFields(t) })));
      const ids = tools.map((t) => t.id);
      return {
        ids,
        async score(queries) {
          return queries.map((q) => {
            const scores = new Float64Array(ids.length);
            const terms = analyze(q, { vocabulary, entityCues });
            if (terms.length === 0) return scores;
            for (const hit of index.search(terms.join(' '))) scores[hit.id as number] = hit.score;
            return scores;
          });
        },
      };
    },
  };
}
