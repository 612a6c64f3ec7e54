import MiniSearch from 'minisearch';
import type { CatalogTool } from '../catalog/types.ts';
import { blockRows } from '../util/block-rows.ts';
import { analyze } from './tokenize.ts';
import { describeFields, TOOL_FIELDS, toolFields, type ToolField, type ToolFields } from './tool-fields.ts';
import type { FittedRetriever, Retriever } from './types.ts';

/**
 * Field weights for `document: 'fields'` (`bm25:fields`): a word of the tool name says most
 * about what it does; parameter names say what it acts on; parameter descriptions are long and
 * generic. Hand-written from that reasoning; the default is one flat document instead, which
 * measured better on the suites these weights were not chosen on (docs/retrieval.md).
 */
const BM25_FIELD_WEIGHTS: Readonly<Record<ToolField, number>> = {
  name: 3,
  server: 1,
  description: 1,
  parameters: 1.5,
  parameterDescriptions: 0.5,
};

/** Classic BM25 (Robertson: k1 = 1.2, b = 0.75, no BM25+ lower bound), the parameters every BM25 library starts from. */
const CLASSIC_BM25 = { k: 1.2, b: 0.75, d: 0 } as const;

export interface Bm25Options {
  name?: string;
  /** Developer-vocabulary expansion on both sides (default true). */
  vocabulary?: boolean;
  /**
   * Entity-cue words added to the query (default false). As query words they favour any tool
   * whose text mentions a file, a path or a URL anywhere; the learned reranker uses the cues
   * against parameter names only, with a weight learned on other catalogs.
   */
  entityCues?: boolean;
  /** `flat` (default): one document of every field's text, one length normalisation; `fields`: each field scored on its own and weighted. */
  document?: 'flat' | 'fields';
  /** Field weights for `document: 'fields'` (default BM25_FIELD_WEIGHTS). */
  weights?: Readonly<Record<ToolField, number>>;
}

/**
 * BM25 over the tool's text (./tool-fields.ts: name, server, description, parameter names and
 * descriptions) on MiniSearch. Of the three BM25 libraries installed, MiniSearch was chosen
 * (scripts/bench-retrieval.ts, docs/retrieval.md): it takes our analyzer for documents and
 * queries, has per-field boosts, is maintained and typed, and ranks a query in well under a
 * millisecond; wink-bm25-text-search needs ≥ 3 documents and ships no types; okapibm25
 * re-scans every document with regular expressions on each query (`bm25:okapi`, kept to
 * compare). Scored as classic BM25 (CLASSIC_BM25) over distinct query terms, summed: no
 * MiniSearch coordination factor (a score times the number of query terms matched), which
 * favoured tools matching many generic words of a long request. A tool sharing no term with
 * the query scores 0.
 */
export function createBm25Retriever(options: Bm25Options = {}): Retriever {
  const document = options.document ?? 'flat';
  const weights = options.weights ?? BM25_FIELD_WEIGHTS;
  const vocabulary = options.vocabulary ?? true;
  const entityCues = options.entityCues ?? false;
  const text =
    document === 'flat'
      ? 'one flat document: name + server + description + parameter names + parameter descriptions'
      : describeFields(weights);
  return {
    name: options.name ?? 'bm25',
    description: `BM25 (MiniSearch, k1 = ${CLASSIC_BM25.k}, b = ${CLASSIC_BM25.b}), ${document === 'flat' ? 'one flat document' : `fields ${describeFields(weights)}`}${vocabulary ? ', developer vocabulary' : ''}${entityCues ? ', entity-cue words in the query' : ''}`,
    toolText: text,
    scale: 'unbounded',
    async fit(tools: readonly CatalogTool[]): Promise<FittedRetriever> {
      const index = document === 'flat' ? flatBm25Index(tools, vocabulary) : bm25Index(tools, weights, vocabulary);
      const ids = tools.map((t) => t.id);
      // Each query term's score in every tool that has it: MiniSearch's own search of that
      // term alone (one term: no combining), once per term. A query's score for a tool is the
      // sum of its distinct terms' scores, in query order (test/retrieval/bm25-postings.test.ts).
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
            // The distinct terms MiniSearch would take from the analysed query joined by spaces.
            const terms = new Set(analyze(q, { vocabulary, entityCues }).join(' ').split(' ').filter(Boolean));
            for (const term of terms) {
              const { tools: hit, scores: s } = postingsOf(term);
              for (let i = 0; i < hit.length; i++) scores[hit[i]!]! += s[i]!;
            }
            return scores;
          });
        },
      };
    },
  };
}

/** Term scores kept per fitted index at most (12 bytes each), then the memo starts over. */
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
    searchOptions: { boost: Object.fromEntries(fields.map((f) => [f, weights[f]])), combineWith: 'OR', bm25: CLASSIC_BM25 },
  });
  index.addAll(tools.map((t, id) => ({ id, ...toolFields(t) })));
  return index;
}

/**
 * One flat document per tool: every field's terms in one field, so one length normalisation
 * covers the tool. Fields are analysed one by one (the same terms as their joined text, since
 * words never cross a field), so server copies that share descriptions hit the analyser's memo.
 */
export function flatBm25Index(tools: readonly CatalogTool[], vocabulary = true): MiniSearch<{ id: number; text: string }> {
  const index = new MiniSearch<{ id: number; text: string }>({
    fields: ['text'],
    idField: 'id',
    // Documents and queries both arrive analysed (terms joined by spaces).
    tokenize: (text) => text.split(' ').filter(Boolean),
    processTerm: (term) => term,
    searchOptions: { combineWith: 'OR', bm25: CLASSIC_BM25 },
  });
  const terms = (t: CatalogTool) => {
    const fields = toolFields(t);
    return TOOL_FIELDS.flatMap((f) => analyze(fields[f], { vocabulary })).join(' ');
  };
  index.addAll(tools.map((t, id) => ({ id, text: terms(t) })));
  return index;
}
