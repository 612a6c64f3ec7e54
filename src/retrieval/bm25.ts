import MiniSearch from 'minisearch';
import type { CatalogTool } from '../catalog/types.ts';
import { blockRows } from '../util/block-rows.ts';
import { ScratchArray } from '../util/scratch-array.ts';
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
  return {
    name: options.name ?? 'bm25',
    description: `BM25+ (MiniSearch), fields ${describeFields(weights)}${vocabulary ? ', developer vocabulary' : ''}${entityCues ? ', entity cues' : ''}`,
    toolText: describeFields(weights),
    scale: 'unbounded',
    async fit(tools: readonly CatalogTool[]): Promise<FittedRetriever> {
      const index = bm25Index(tools, weights, vocabulary);
      const ids = tools.map((t) => t.id);
      // Each query term's score in every tool that has it: MiniSearch's own search of that
      // term alone (one term: no combining, quality 1), once per term. A query is then what
      // MiniSearch's OR search computes from them, in the same order, without its per-query
      // option objects, match records and sort: a tool's score is the sum of its query terms'
      // scores in query order (a repeated term counts again), times the number of distinct
      // query terms it matched. The same bits (test/retrieval/bm25-postings.test.ts).
      let postings = new Map<string, { tools: Int32Array; scores: Float64Array }>();
      let held = 0;
      const postingsOf = (term: string) => {
        let p = postings.get(term);
        if (!p) {
          const hits = index.search(term);
          p = { tools: Int32Array.from(hits, (h) => h.id as number), scores: Float64Array.from(hits, (h) => h.score) };
          // Bounded (a stranger's task file may hold any number of words): start over when full.
          if (held + hits.length > MAX_POSTINGS) [postings, held] = [new Map(), 0];
          postings.set(term, p);
          held += hits.length;
        }
        return p;
      };
      return {
        ids,
        async score(queries) {
          const rows = blockRows(Float64Array, queries.length, ids.length);
          return queries.map((q, qi) => {
            const scores = rows[qi]!;
            // The terms MiniSearch's search would take from the analysed query joined by spaces.
            const terms = analyze(q, { vocabulary, entityCues }).join(' ').split(' ').filter(Boolean);
            if (terms.length === 0) return scores;
            const distinct = distinctScratch.zeroed(ids.length);
            const seen = new Set<string>();
            for (const term of terms) {
              const { tools: hit, scores: s } = postingsOf(term);
              const first = !seen.has(term);
              seen.add(term);
              for (let i = 0; i < hit.length; i++) {
                scores[hit[i]!]! += s[i]!;
                if (first) distinct[hit[i]!]!++;
              }
            }
            for (let t = 0; t < scores.length; t++) if (distinct[t]! > 1) scores[t]! *= distinct[t]!;
            return scores;
          });
        },
      };
    },
  };
}

// Distinct query terms per tool, zeroed for each query (score() does not re-enter).
const distinctScratch = new ScratchArray(Uint32Array);

/** Term scores kept per fitted index at most (12 bytes each: ~48 MB), then the memo starts over. */
const MAX_POSTINGS = 4_000_000;

/** The MiniSearch index of the tools' weighted fields (exported for the test that checks scores against its own search). */
export function bm25Index(
  tools: readonly CatalogTool[],
  weights: Readonly<Record<ToolField, number>> = BM25_FIELD_WEIGHTS,
  vocabulary = true,
): MiniSearch<ToolFields & { id: number }> {
  const fields = TOOL_FIELDS.filter((f) => weights[f] > 0);
  const index = new MiniSearch<ToolFields & { id: number }>({
    fields: [...fields],
    idField: 'id',
    // Documents are analyzed here; queries arrive analyzed (terms joined by spaces).
    tokenize: (text, field) => (field ? analyze(text, { vocabulary }) : text.split(' ').filter(Boolean)),
    processTerm: (term) => term,
    searchOptions: { boost: Object.fromEntries(fields.map((f) => [f, weights[f]])), combineWith: 'OR' },
  });
  index.addAll(tools.map((t, id) => ({ id, ...toolFields(t) })));
  return index;
}
