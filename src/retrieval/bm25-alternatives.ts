import okapiModule from 'okapibm25';
import winkBm25 from 'wink-bm25-text-search';
import type { CatalogTool } from '../catalog/types.ts';
import { BM25_FIELD_WEIGHTS } from './bm25.ts';
import { analyze } from './tokenize.ts';
import { describeFields, TOOL_FIELDS, toolFields } from './tool-fields.ts';
import type { FittedRetriever, Retriever } from './types.ts';

// okapibm25 is CommonJS with `exports.default`: depending on the loader's interop the default
// import is the function itself or the module object holding it.
type OkapiFunction = typeof okapiModule.default;
const okapiBm25: OkapiFunction = typeof okapiModule === 'function' ? (okapiModule as unknown as OkapiFunction) : okapiModule.default;

/**
 * The two BM25 libraries compared with MiniSearch (./bm25.ts), on the same analyzer and
 * fields, so the retrieval table shows what the choice of library changes.
 */

/** wink-bm25-text-search: classic BM25 (k1 = 1.2, b = 0.75) with field weights; needs ≥ 3 tools. */
export function createWinkBm25Retriever(): Retriever {
  const weights = BM25_FIELD_WEIGHTS;
  return {
    name: 'bm25:wink',
    description: `BM25 (wink-bm25-text-search), fields ${describeFields(weights)}, developer vocabulary, entity cues`,
    toolText: describeFields(weights),
    scale: 'unbounded',
    async fit(tools: readonly CatalogTool[]): Promise<FittedRetriever> {
      if (tools.length < 3) throw new Error(`bm25:wink needs at least 3 tools to index, got ${tools.length}`);
      const engine = winkBm25();
      engine.defineConfig({
        fldWeights: Object.fromEntries(TOOL_FIELDS.map((f) => [f, weights[f]])),
        bm25Params: { k1: 1.2, b: 0.75, k: 1 },
      });
      // Queries arrive analyzed; documents are analyzed per field.
      engine.definePrepTasks([(text: string) => text.split(' ').filter(Boolean)]);
      for (const f of TOOL_FIELDS) engine.definePrepTasks([(text: string) => analyze(text)], f);
      tools.forEach((t, i) => engine.addDoc({ ...toolFields(t) }, i));
      engine.consolidate();
      const ids = tools.map((t) => t.id);
      return {
        ids,
        async score(queries) {
          return queries.map((q) => {
            const scores = new Float64Array(ids.length);
            const terms = analyze(q, { entityCues: true });
            if (terms.length) for (const [id, score] of engine.search(terms.join(' '), ids.length)) scores[Number(id)] = score;
            return scores;
          });
        },
      };
    },
  };
}

/** okapibm25: one flat document per tool (no field weights), scored by the library per query. */
export function createOkapiBm25Retriever(): Retriever {
  return {
    name: 'bm25:okapi',
    description: 'BM25 (okapibm25, k1 = 1.2, b = 0.75), one flat document per tool, developer vocabulary, entity cues',
    toolText: 'name + server + description + parameter names + parameter descriptions, unweighted',
    scale: 'unbounded',
    async fit(tools: readonly CatalogTool[]): Promise<FittedRetriever> {
      const docs = tools.map((t) => analyze(Object.values(toolFields(t)).join('\n')).join(' '));
      const ids = tools.map((t) => t.id);
      return {
        ids,
        async score(queries) {
          return queries.map((q) => {
            const terms = [...new Set(analyze(q, { entityCues: true }))];
            return Float64Array.from(terms.length ? (okapiBm25(docs, terms) as number[]) : docs.map(() => 0));
          });
        },
      };
    },
  };
}
