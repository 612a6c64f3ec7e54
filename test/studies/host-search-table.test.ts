import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { runPipeline, type TurnRecord } from '../../src/measure/run-pipeline.ts';
import { summarize } from '../../src/measure/summarize.ts';
import { createFullSchemaPipeline } from '../../src/pipelines/b1-full-schema/pipeline.ts';
import { createHostSearchPipeline } from '../../src/pipelines/host-search/pipeline.ts';
import type { Pipeline } from '../../src/pipelines/types.ts';
import { SEARCH_BAND_IDS, searchPipelineWithBand } from '../../src/pipelines/search-bands.ts';
import { searchRecall } from '../../src/measure/search-recall.ts';
import { createSearchExecutePipeline } from '../../src/pipelines/search-execute/pipeline.ts';
import { projectPipeline } from '../../src/sim/projection/project.ts';
import { hostSearchTable } from '../../src/studies/projection/host-search-table.ts';
import type { ProjectedMethod } from '../../src/studies/projection/tables.ts';
import type { Task } from '../../src/tasks/types.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';

const catalog = loadCatalog(join(process.cwd(), 'test', 'fixtures', 'small-catalog'));
const tokens = tokenCounter('cl100k_base');

const tasks: Task[] = [
  ['post a message to the release channel', 'chat/post_message'],
  ['search the code for the login handler', 'code/search_code'],
  ['list the notes of my notebook', 'notes/list_notes'],
].map(([user, tool], i) => ({
  id: `t${i}`,
  kind: 'multi',
  turns: [
    { user: user!, tools: [tool!] },
    { user: 'thanks, that is all', tools: [] },
  ],
  groundTruthTools: [tool!],
  initialState: { authScopes: ['chat:read', 'chat:write', 'code:read', 'code:write'] },
  flags: { ambiguous: false },
  servers: [tool!.split('/')[0]!],
}));

async function measured(p: Pipeline): Promise<{ method: ProjectedMethod; records: TurnRecord[] }> {
  await p.prepare?.({ catalog, tokens, seed: 42, workDir: '', calibrationTasks: [], historyTasks: [] });
  const records = await runPipeline(p, tasks, { catalog, tokens, seed: 42 });
  const summary = summarize(records, p.label);
  return { method: { id: p.id, label: p.label, summary, result: projectPipeline(records, undefined, 42, { bootstrap: false }) }, records };
}

describe('host tool search table', () => {
  it('puts the host searches beside B1 with measured searches per task and the projection’s calls', async () => {
    const b1 = await measured(createFullSchemaPipeline());
    const ats = await measured(createHostSearchPipeline({ kind: 'anthropic-bm25' }));
    const records = new Map([
      [b1.method.id, b1.records],
      [ats.method.id, ats.records],
    ]);
    const table = hostSearchTable([ats.method, b1.method], records, 'small')!;
    expect(table.id).toBe('host-search');
    expect(table.rows.map((r) => r.pipeline)).toEqual(['b1-full-schema', 'anthropic-tool-search-bm25']);
    const [rb1, rats] = table.rows;
    expect(rb1!.searches).toBe(0);
    // One search per task (one tool turn each).
    expect(rats!.searches).toBe(1);
    expect(rats!.toolTokens).toBeLessThan(rb1!.toolTokens as number);
    expect(rats!.vsB1).toBeLessThan(0);
    // The projection counts the search as one more model call per task.
    expect((rats!.calls as number) - (rb1!.calls as number)).toBeCloseTo(1, 5);
    expect(table.columns.filter((c) => c.kind === 'projected').map((c) => c.key)).toEqual([
      'calls',
      'cost',
      'cacheHit',
      'success',
      'successCi',
      'successLower',
      'successUpper',
    ]);
    expect(table.notes!.join(' ')).toMatch(/measured on 4,027 Arcade tools and 25 tasks, not ours/);
  });

  it('is absent when the run measured no host search', async () => {
    const b1 = await measured(createFullSchemaPipeline());
    expect(hostSearchTable([b1.method], new Map([[b1.method.id, b1.records]]), 'small')).toBeUndefined();
  });

  it('carries the band on the code-execution searches too: the same pipeline under the lower and upper searching model', async () => {
    expect(SEARCH_BAND_IDS).toEqual(expect.arrayContaining(['search-execute', 'code-mode-files-search', 'openai-client-search']));
    expect(searchPipelineWithBand('b1-full-schema', 'upper')).toBeUndefined();
    const recalls: Record<string, { lower: number; upper: number }> = {};
    for (const id of ['search-execute', 'code-mode-files-search']) {
      const recall = async (band: 'lower' | 'upper') => {
        const p = searchPipelineWithBand(id, band)!;
        expect(p.id).toBe(id);
        await p.prepare?.({ catalog, tokens, seed: 42, workDir: '', calibrationTasks: [], historyTasks: [] });
        return (await searchRecall(p, tasks, catalog)).recall;
      };
      recalls[id] = { lower: await recall('lower'), upper: await recall('upper') };
      expect(recalls[id]!.upper, id).toBeGreaterThanOrEqual(recalls[id]!.lower);
    }
    // The upper band searches in the needed tool's own words: search + execute loads it every time.
    expect(recalls['search-execute']!.upper).toBe(1);
    const se = await measured(createSearchExecutePipeline());
    const b1 = await measured(createFullSchemaPipeline());
    const table = hostSearchTable(
      [se.method, b1.method],
      new Map([
        [se.method.id, se.records],
        [b1.method.id, b1.records],
      ]),
      'small',
      new Map([['search-execute', recalls['search-execute']!]]),
    );
    // Without a host search the table is not drawn; with one, the code search rows carry the band.
    expect(table).toBeUndefined();
    const ats = await measured(createHostSearchPipeline({ kind: 'anthropic-bm25' }));
    const withHost = hostSearchTable(
      [se.method, b1.method, ats.method],
      new Map([
        [se.method.id, se.records],
        [b1.method.id, b1.records],
        [ats.method.id, ats.records],
      ]),
      'small',
      new Map([['search-execute', { ...recalls['search-execute']!, successLower: 0.25, successUpper: 0.75 }]]),
    )!;
    const row = withHost.rows.find((r) => r.pipeline === 'search-execute')!;
    expect(row.kind).toBe('code execution (search)');
    expect(row.recallLower).toBe(recalls['search-execute']!.lower);
    expect(row.recallUpper).toBe(1);
    expect([row.successLower, row.successUpper]).toEqual([25, 75]);
    expect(withHost.rows.find((r) => r.pipeline === 'b1-full-schema')!.successLower).toBeUndefined();
  });
});
