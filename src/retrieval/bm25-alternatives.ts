import { createRequire } from 'node:module';
import type * as OkapiExports from 'okapibm25';
import winkBm25 from 'wink-bm25-text-search';
import type { CatalogTool } from '../catalog/types.ts';
import { analyze } from './tokenize.ts';
import { describeFields, TOOL_FIELDS, toolFields, type ToolField, type ToolFields } from './tool-fields.ts';
import { skipReason, type FittedRetriever, type Retriever } from './types.ts';

// okapibm25 is CommonJS (exports.default and its parts): required as such, its exports object whatever the loader's interop.
const okapi = createRequire(import.meta.url)('okapibm25') as typeof OkapiExports;

/**
 * The two BM25 libraries compared with MiniSearch (./bm25.ts), untuned: the same analyzer
 * (words, stop words, stems) and tool text, none of the harness's hand-written parts (no
 * developer vocabulary, no entity cues, no field weights), so the retrieval tables show what a
 * library gives on its own.
 */

const EQUAL_WEIGHTS: Readonly<Record<ToolField, number>> = { name: 1, server: 1, description: 1, parameters: 1, parameterDescriptions: 1 };
const UNTUNED = { vocabulary: false } as const;

/** What a wink BM25 indexes besides the defaults: another name, field weights (0 leaves a field out) or field texts. */
export interface WinkBm25Options {
  name?: string;
  weights?: Readonly<Record<ToolField, number>>;
  /** The text of each field of a tool (default: toolFields). */
  fields?: (tool: CatalogTool) => ToolFields;
  /** How `fields` differs from the default, for the description. */
  fieldsNote?: string;
}

/** wink-bm25-text-search: classic BM25 (k1 = 1.2, b = 0.75), every field weight 1 unless told. */
export function createWinkBm25Retriever(options: WinkBm25Options = {}): Retriever {
  const weights = options.weights ?? EQUAL_WEIGHTS;
  const fieldsOf = options.fields ?? toolFields;
  const name = options.name ?? 'bm25:wink';
  const retriever: Retriever = {
    name,
    description: `BM25 (wink-bm25-text-search), fields ${describeFields(weights)}${options.fieldsNote ? ` (${options.fieldsNote})` : ''}, untuned`,
    toolText: describeFields(weights),
    scale: 'unbounded',
    // The library refuses to consolidate an index of fewer documents.
    minTools: 3,
    async fit(tools: readonly CatalogTool[]): Promise<FittedRetriever> {
      const cannot = skipReason(retriever, tools.length);
      if (cannot) throw new Error(`${name} ${cannot}`);
      const engine = winkBm25();
      const used = TOOL_FIELDS.filter((f) => weights[f] > 0);
      engine.defineConfig({
        fldWeights: Object.fromEntries(used.map((f) => [f, weights[f]])),
        bm25Params: { k1: 1.2, b: 0.75, k: 1 },
      });
      // Queries arrive analyzed; documents are analyzed per field.
      engine.definePrepTasks([(text: string) => text.split(' ').filter(Boolean)]);
      for (const f of used) engine.definePrepTasks([(text: string) => analyze(text, UNTUNED)], f);
      tools.forEach((t, i) => {
        const all = fieldsOf(t);
        engine.addDoc(Object.fromEntries(used.map((f) => [f, all[f]])), i);
      });
      engine.consolidate();
      const ids = tools.map((t) => t.id);
      return {
        ids,
        async score(queries) {
          return queries.map((q) => {
            const scores = new Float64Array(ids.length);
            const terms = analyze(q, UNTUNED);
            if (terms.length) for (const [id, score] of engine.search(terms.join(' '), ids.length)) scores[Number(id)] = score;
            return scores;
          });
        },
      };
    },
  };
  return retriever;
}

/** okapibm25: one flat document per tool (no field weights), scored by the library's functions (okapiScorer). */
export function createOkapiBm25Retriever(): Retriever {
  return {
    name: 'bm25:okapi',
    description: 'BM25 (okapibm25, k1 = 1.2, b = 0.75), one flat document per tool, untuned',
    toolText: 'name + server + description + parameter names + parameter descriptions, unweighted',
    scale: 'unbounded',
    async fit(tools: readonly CatalogTool[]): Promise<FittedRetriever> {
      const docs = tools.map((t) => analyze(Object.values(toolFields(t)).join('\n'), UNTUNED).join(' '));
      const ids = tools.map((t) => t.id);
      const bm25 = okapiScorer(docs);
      return {
        ids,
        async score(queries) {
          return queries.map((q) => {
            const terms = [...new Set(analyze(q, UNTUNED))];
            return Float64Array.from(terms.length ? bm25(terms) : docs.map(() => 0));
          });
        },
      };
    },
  };
}

/** okapibm25's defaults, which BM25() applies when given no constants. */
const OKAPI_K1 = 1.2;
const OKAPI_B = 0.75;

/**
 * okapibm25's BM25(docs, terms), computed by the library's own getWordCount, getIDF and
 * getTermFrequency in the same order of operations, with each term's IDF and per-document
 * frequency kept across queries: BM25() recounts every term in every document on every query
 * (a regular expression per term and document). The scores are BM25()'s bit for bit (a test
 * compares them).
 */
export function okapiScorer(docs: readonly string[]): (terms: readonly string[]) => number[] {
  const all = [...docs];
  const lengths = all.map((d) => okapi.getWordCount(d));
  const average = lengths.reduce((a, b) => a + b, 0) / all.length;
  const byTerm = new Map<string, { idf: number; tf: Int32Array }>();
  const statsOf = (term: string) => {
    let stats = byTerm.get(term);
    if (!stats)
      byTerm.set(term, (stats = { idf: okapi.getIDF(term, all), tf: Int32Array.from(all, (d) => okapi.getTermFrequency(term, d)) }));
    return stats;
  };
  return (terms) => {
    const stats = terms.map(statsOf);
    return all.map((_, i) =>
      stats
        .map(({ idf, tf }) => (idf * (tf[i]! * (OKAPI_K1 + 1))) / (tf[i]! + OKAPI_K1 * (1 - OKAPI_B + (OKAPI_B * lengths[i]!) / average)))
        .reduce((a, b) => a + b, 0),
    );
  };
}
