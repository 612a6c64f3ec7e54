import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { bm25Index, BM25_FIELD_WEIGHTS, createBm25Retriever } from '../../src/retrieval/bm25.ts';
import { analyze } from '../../src/retrieval/tokenize.ts';
import { loadTasks } from '../../src/tasks/load.ts';

const root = process.cwd();
const catalog = loadCatalog(join(root, 'catalogs', 'synthetic-120'));
const tasks = loadTasks(join(root, 'tasks', 'tasks.jsonl'), catalog);
const messages = [...new Set(tasks.flatMap((t) => t.turns.map((turn) => turn.user)))].slice(0, 600);

/** What MiniSearch's own OR search gives each tool for the analysed query. */
function miniSearchScores(index: ReturnType<typeof bm25Index>, n: number, query: string, entityCues: boolean, vocabulary: boolean) {
  const scores = new Float64Array(n);
  const terms = analyze(query, { vocabulary, entityCues });
  if (terms.length) for (const hit of index.search(terms.join(' '))) scores[hit.id as number] = hit.score;
  return scores;
}

describe('bm25 scores from per-term postings', () => {
  for (const [label, vocabulary, entityCues, weights] of [
    ['default', true, true, BM25_FIELD_WEIGHTS],
    ['plain, flat fields', false, false, { name: 1, server: 1, description: 1, parameters: 1, parameterDescriptions: 1 }],
  ] as const) {
    it(`equal MiniSearch's own search bit for bit (${label}; ${messages.length} task messages and hand-made queries)`, async () => {
      const index = bm25Index(catalog.tools, weights, vocabulary);
      const fitted = await createBm25Retriever({ vocabulary, entityCues, weights }).fit(catalog.tools);
      // Repeated words, a word in no tool, punctuation only, and the empty query.
      const queries = [...messages, 'list list list the issues issues', 'zzzqqq', '?!', '', 'create issue and then list pull requests'];
      const ours = await fitted.score(queries);
      let nonZero = 0;
      queries.forEach((q, i) => {
        const ref = miniSearchScores(index, catalog.tools.length, q, entityCues, vocabulary);
        expect(new Uint32Array(ours[i]!.slice().buffer), q).toEqual(new Uint32Array(ref.buffer));
        nonZero += ref.filter((x) => x > 0).length;
      });
      expect(nonZero).toBeGreaterThan(queries.length); // the comparison is about real scores, not zeros
    });
  }
});
