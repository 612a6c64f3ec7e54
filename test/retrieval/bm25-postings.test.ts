import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { bm25Index, createBm25Retriever, flatBm25Index } from '../../src/retrieval/bm25.ts';
import { analyze } from '../../src/retrieval/tokenize.ts';
import { loadTasks } from '../../src/tasks/load.ts';

const root = process.cwd();
const catalog = loadCatalog(join(root, 'catalogs', 'synthetic-120'));
const tasks = loadTasks(join(root, 'tasks', 'tasks.jsonl'), catalog);
const messages = [...new Set(tasks.flatMap((t) => t.turns.map((turn) => turn.user)))].slice(0, 600);

/**
 * What MiniSearch's own OR search gives each tool for the distinct analysed query terms, without
 * its coordination factor: its score is the summed BM25 times the number of query terms matched,
 * so dividing by that number gives the sum (to the last bit or one rounding of it).
 */
function miniSearchScores(
  index: { search: (q: string) => { id: unknown; score: number; queryTerms: string[] }[] },
  n: number,
  query: string,
  vocabulary: boolean,
) {
  const scores = new Float64Array(n);
  const terms = [...new Set(analyze(query, { vocabulary }))];
  if (terms.length) for (const hit of index.search(terms.join(' '))) scores[hit.id as number] = hit.score / hit.queryTerms.length;
  return scores;
}

describe('bm25 scores from per-term postings', () => {
  for (const [label, vocabulary, document] of [
    ['default: one flat document, vocabulary', true, 'flat'],
    ['plain fields, no vocabulary', false, 'fields'],
  ] as const) {
    it(`equal MiniSearch's own search (${label}; ${messages.length} task messages and hand-made queries)`, async () => {
      const index = document === 'flat' ? flatBm25Index(catalog.tools, vocabulary) : bm25Index(catalog.tools, undefined, vocabulary);
      const fitted = await createBm25Retriever({ vocabulary, document }).fit(catalog.tools);
      // Repeated words, a word in no tool, punctuation only, and the empty query.
      const queries = [...messages, 'list list list the issues issues', 'zzzqqq', '?!', '', 'create issue and then list pull requests'];
      const ours = await fitted.score(queries);
      let nonZero = 0;
      queries.forEach((q, i) => {
        const ref = miniSearchScores(index, catalog.tools.length, q, vocabulary);
        ref.forEach((r, t) => expect(Math.abs(ours[i]![t]! - r), q).toBeLessThanOrEqual(1e-12 * Math.max(1, r)));
        nonZero += ref.filter((x) => x > 0).length;
      });
      expect(nonZero).toBeGreaterThan(queries.length); // the comparison is about real scores, not zeros
    });
  }

  it('counts a repeated query word once', async () => {
    const fitted = await createBm25Retriever().fit(catalog.tools);
    const [once, thrice] = await fitted.score(['list the issues', 'list list list the issues issues']);
    expect([...thrice!]).toEqual([...once!]);
  });
});
