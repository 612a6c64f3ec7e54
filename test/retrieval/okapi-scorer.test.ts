import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { okapiScorer } from '../../src/retrieval/bm25-alternatives.ts';
import { analyze } from '../../src/retrieval/tokenize.ts';
import { toolFields } from '../../src/retrieval/tool-fields.ts';
import { SERVER_SPECS } from '../../src/catalog/servers/index.ts';
import { TaskGenerator } from '../../src/tasks/generate.ts';

// The library's BM25 itself, required as src/retrieval/bm25-alternatives.ts requires the library.
const bm25 = (createRequire(import.meta.url)('okapibm25') as { default: (documents: string[], keywords: string[]) => number[] }).default;

describe('bm25:okapi', () => {
  it("scores as okapibm25's BM25() does, bit for bit, with its per-term work kept across queries", () => {
    const tools = [
      ...loadCatalog('catalogs/synthetic-120').tools,
      ...loadCatalog(['catalogs/real/github.json', 'catalogs/real/filesystem.json', 'catalogs/real/jira.json']).tools,
    ];
    const docs = tools.map((t) => analyze(Object.values(toolFields(t)).join('\n'), { vocabulary: false }).join(' '));
    const queries = new TaskGenerator(SERVER_SPECS)
      .generate(42)
      .slice(0, 60)
      .flatMap((t) => t.turns.map((u) => [...new Set(analyze(u.user, { vocabulary: false }))]))
      .filter((terms) => terms.length > 0);
    const scorer = okapiScorer(docs);
    expect(queries.length).toBeGreaterThan(50);
    for (const terms of [...queries, ...queries.slice(0, 5)]) {
      const ours = scorer(terms);
      expect(ours.some((x) => x > 0)).toBe(true);
      expect(ours).toEqual(bm25(docs, terms));
    }
  });
});
