import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { runBench } from '../../src/bench/run.ts';
import { checkedPipelineRegistry } from '../../src/pipelines/check-registry.ts';
import { PIPELINES } from '../../src/pipelines/registry.ts';
import { checkedStudyRegistry } from '../../src/studies/check-registry.ts';
import { projectionStudy } from '../../src/studies/projection/study.ts';
import { createFirstNPipeline, firstNEntry } from '../../src/pipelines/first-n/pipeline.ts';
import { renderToolDefinitions } from '../../src/prompt/render-tools.ts';
import { staticCostTable } from '../../src/measure/static-cost.ts';
import type { Table } from '../../src/table/table.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';

const FIXTURE = join(process.cwd(), 'test', 'fixtures', 'small-catalog');
const catalog = loadCatalog(FIXTURE);
const tokens = tokenCounter('cl100k_base');

const createFirstTwoPipeline = () => createFirstNPipeline(2);
const dirs: string[] = [];

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('pipeline registry', () => {
  it('registers B2 and B4 in the main table, in table order after B1', () => {
    const ids = PIPELINES.map((p) => p.id);
    const at = (id: string) => ids.indexOf(id);
    expect(at('b1-full-schema')).toBe(0);
    expect(at('b2-static-pruning')).toBeGreaterThan(at('b1-full-schema'));
    expect(at('b4-cli-lazy')).toBeGreaterThan(at('b2-static-pruning'));
    for (const [id, label] of [
      ['b2-static-pruning', 'B2 Static Pruning'],
      ['b4-cli-lazy', 'B4 CLI Lazy'],
    ] as const) {
      const entry = PIPELINES.find((p) => p.id === id)!;
      expect(entry.group).toBe('main');
      const p = entry.create();
      expect([p.id, p.label]).toEqual([id, label]);
    }
  });

  it('a pipeline added to a registry shows up in the bench output', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tooltax-registry-'));
    dirs.push(dir);
    const tasksFile = join(dir, 'tasks.jsonl');
    writeFileSync(
      tasksFile,
      [
        { id: 'a', turns: [{ user: 'what did the team say in #deploys?', tools: ['read_channel'] }] },
        {
          id: 'b',
          turns: [
            { user: 'find where we call login()', tools: ['search_code'] },
            { user: 'tell #deploys it is fixed', tools: ['post_message'] },
          ],
        },
      ]
        .map((t) => JSON.stringify(t))
        .join('\n') + '\n',
    );
    // The bench's B1 and the example, in a registry of this test's own (the bench's is read-only).
    const pipelines = checkedPipelineRegistry([PIPELINES.find((p) => p.id === 'b1-full-schema')!, firstNEntry]);
    const out = join(dir, 'results');
    const reports = join(dir, 'reports');
    const { resultsDir, reportsDir, summaries } = await runBench({
      root: process.cwd(),
      seed: 42,
      seeds: [42],
      catalog: [FIXTURE],
      tasks: tasksFile,
      tokenizer: 'cl100k_base',
      out,
      reports,
      pipelines: ['b1-full-schema', 'first-n'],
      // No retrieval here: nothing to embed with a pretrained encoder or to train (a fresh clone has no cache).
      encoder: 'tfidf',
      retriever: 'bm25',
      // What this test reads downstream comes from the projection study; the others only cost time.
      registry: { pipelines, studies: checkedStudyRegistry([projectionStudy]) },
      quick: false,
      log: () => {},
    });
    expect([resultsDir, reportsDir]).toEqual([out, reports]);
    expect(summaries.map((s) => s.pipeline)).toEqual(['b1-full-schema', 'first-n']);
    const table = JSON.parse(readFileSync(join(out, 'tables', 'table3-measured.json'), 'utf8')) as Table;
    expect(table.rows.map((r) => r.method)).toEqual(['B1 Full-Schema', 'First-2']);
    const mine = table.rows.find((r) => r.method === 'First-2')!;
    expect(mine.toolTokens).toBe(tokens.count(`${renderToolDefinitions(catalog.tools.slice(0, 2))}\n`));
    expect(readFileSync(join(reports, 'tables.md'), 'utf8')).toMatch(/\| First-2 \|/);
    // Downstream with no other edit: the projection, its sensitivity table (by registry code) and the charts.
    const projected = JSON.parse(readFileSync(join(out, 'tables', 'table3-projected.json'), 'utf8')) as Table;
    expect(projected.rows.map((r) => r.method)).toContain('First-2');
    // A user's catalog: the paper's figures (published for its testbed) are not printed beside it.
    for (const t of [table, projected]) expect(t.columns.filter((c) => c.kind === 'published').map((c) => c.key)).toEqual([]);
    const sensitivity = readFileSync(join(out, 'tables', 'projection-sensitivity.json'), 'utf8');
    expect(sensitivity).toMatch(/F2/);
    const chart = JSON.parse(readFileSync(join(reports, 'charts', 'tool-tokens-per-turn.vl.json'), 'utf8')) as unknown;
    expect(JSON.stringify(chart)).toMatch(/First-2/);
  });
});

describe('static cost table (catalog without tasks)', () => {
  it('measures every pipeline generically from the sections it returns', async () => {
    const entries = PIPELINES.filter((p) => ['b1-full-schema', 'b2-static-pruning', 'b4-cli-lazy'].includes(p.id));
    const table = await staticCostTable(catalog, tokens, [...entries, createFirstTwoPipeline()]);
    expect(table.id).toBe('static-cost');
    const row = (label: string) => table.rows.find((r) => r.method === label)!;
    const all = tokens.count(`${renderToolDefinitions(catalog.tools)}\n`);
    expect(row('B1 Full-Schema')).toMatchObject({
      staticTools: all,
      listed: 9,
      schemas: 9,
      perTurnNeutral: 0,
      perTurnProbe: 0,
      note: 'static only',
    });
    // No history for a user's catalog: B2 falls back to its rule; 9 tools fit in 30.
    expect(row('B2 Static Pruning')).toMatchObject({ staticTools: all, perTurnProbe: 0 });
    const b4 = row('B4 CLI Lazy');
    expect(b4.staticTools).toBeGreaterThan(0);
    expect(b4.staticTools).toBeLessThan(200);
    expect(b4).toMatchObject({ listed: 0, schemas: 0, perTurnNeutral: 0 });
    expect(b4.perTurnProbe).toBeGreaterThan(0);
    expect(b4.note).toMatch(/depends on the query/);
    expect(row('First-2')).toMatchObject({ staticTools: tokens.count(`${renderToolDefinitions(catalog.tools.slice(0, 2))}\n`), listed: 2 });
    for (const r of table.rows) expect(r.stable).toBe((r.staticTools as number) + (r.system as number));
  });
});
