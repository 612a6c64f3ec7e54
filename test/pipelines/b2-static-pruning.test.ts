import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPipeline } from '../../src/measure/run-pipeline.ts';
import { loadCatalog } from '../../src/catalog/load.ts';
import { serializeToolDefinition } from '../../src/catalog/types.ts';
import { createStaticPruningPipeline } from '../../src/pipelines/b2-static-pruning/pipeline.ts';
import { fallbackOrder, selectStaticSubset } from '../../src/pipelines/b2-static-pruning/select.ts';
import type { Pipeline, PipelineContext, TurnResult } from '../../src/pipelines/types.ts';
import { promptText } from '../../src/pipelines/types.ts';
import { renderToolDefinitions } from '../../src/prompt/render-tools.ts';
import { sharedParts } from '../../src/prompt/shared-parts.ts';
import type { Task } from '../../src/tasks/types.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';

const catalog = loadCatalog(join(process.cwd(), 'test', 'fixtures', 'small-catalog'));
const tokens = tokenCounter('cl100k_base');

function task(id: string, turns: string[][]): Task {
  const tools = [...new Set(turns.flat())].sort();
  return {
    id,
    kind: turns.length === 1 ? 'single' : 'multi',
    turns: turns.map((t, i) => ({ user: `request ${i + 1} of ${id}`, tools: t })),
    groundTruthTools: tools,
    initialState: { authScopes: ['chat:read', 'chat:write', 'code:read', 'code:write'] },
    flags: { ambiguous: false },
    servers: [...new Set(tools.map((t) => t.split('/')[0]!))].sort(),
  };
}

function ctx(historyTasks: Task[]): PipelineContext {
  return { catalog, tokens, seed: 42, workDir: '', calibrationTasks: [], historyTasks };
}

/**
 * Past usage: chat/read_channel 3 calls in 3 tasks; code/search_code 2 calls in 2 tasks;
 * notes/list_notes 2 calls in 1 task; code/get_file and code/create_branch 1 call each.
 */
const HISTORY = [
  task('h1', [['chat/read_channel', 'code/search_code']]),
  task('h2', [['chat/read_channel'], ['notes/list_notes'], ['notes/list_notes']]),
  task('h3', [['chat/read_channel'], ['code/create_branch']]),
  task('h4', [['code/search_code', 'code/get_file']]),
];

/** Evaluated tasks lean on a tool the history never uses. */
const EVALUATED = [task('e1', [['code/delete_branch']]), task('e2', [['code/delete_branch', 'chat/read_channel']])];

async function firstTurn(p: Pipeline, t: Task): Promise<TurnResult> {
  p.startTask?.(t);
  return p.turn({
    task: t,
    turnIndex: 0,
    turn: t.turns[0]!,
    state: { authScopes: new Set(), toolOutputs: [] },
    shared: sharedParts([], t.turns[0]!.user),
  });
}

describe('B2 static pruning: choosing the subset', () => {
  it('ranks by calls in the history, ties by distinct tasks, then catalog order', () => {
    const s = selectStaticSubset(catalog, HISTORY, 5);
    expect(s.ranked).toEqual(['chat/read_channel', 'code/search_code', 'notes/list_notes', 'code/get_file', 'code/create_branch']);
    expect(s.rule).toBe('history-usage');
    expect(s.historyCalls).toBe(9);
    expect(s.historyCoverage).toBe(1);
    // The prompt lists the chosen tools in catalog order.
    expect(s.ids).toEqual(['chat/read_channel', 'code/search_code', 'code/get_file', 'code/create_branch', 'notes/list_notes']);
  });

  it('is deterministic and independent of the order of the history', () => {
    const a = selectStaticSubset(catalog, HISTORY, 3);
    const b = selectStaticSubset(catalog, [...HISTORY].reverse(), 3);
    expect(b.ranked).toEqual(a.ranked);
    expect(a.ranked).toEqual(['chat/read_channel', 'code/search_code', 'notes/list_notes']);
  });

  it('fills up with the fallback rule when the history uses fewer tools than the size', () => {
    const s = selectStaticSubset(catalog, [task('h', [['notes/archive_note']])], 3);
    expect(s.rule).toBe('history-usage+fallback');
    expect(s.fromHistory).toBe(1);
    expect(s.ranked).toEqual(['notes/archive_note', 'chat/read_channel', 'code/search_code']);
  });

  it('without history: round-robin over servers, read-only tools first, destructive last', () => {
    expect(fallbackOrder(catalog)).toEqual([
      'chat/read_channel',
      'code/search_code',
      'notes/list_notes', // no annotations: read-only by its verb
      'chat/post_message',
      'code/get_file',
      'notes/create_note',
      'code/create_branch',
      'notes/archive_note',
      'code/delete_branch',
    ]);
    const s = selectStaticSubset(catalog, [], 4);
    expect(s.rule).toBe('fallback-spread-read-only-first');
    expect(s.ranked).toEqual(['chat/read_channel', 'code/search_code', 'notes/list_notes', 'chat/post_message']);
  });

  it('keeps the whole catalog when it is smaller than the subset size (default 30)', async () => {
    const p = createStaticPruningPipeline();
    await p.prepare!(ctx(HISTORY));
    const r = await firstTurn(p, EVALUATED[0]!);
    expect(r.exposure.fullSchemaTools).toHaveLength(catalog.tools.length);
    expect(p.describe!().details).toMatchObject({ subsetSize: 30, rule: 'history-usage+fallback', fromHistory: 5, fromFallback: 4 });
  });
});

describe('B2 static pruning: the prompt', () => {
  it('carries exactly the subset chosen from history; a tool used only by evaluated tasks is out', async () => {
    const p = createStaticPruningPipeline({ size: 3 });
    await p.prepare!(ctx(HISTORY));
    const r = await firstTurn(p, EVALUATED[1]!);
    const chosen = ['chat/read_channel', 'code/search_code', 'notes/list_notes'];
    expect(r.exposure).toEqual({ listedTools: chosen, fullSchemaTools: chosen, discoveryCalls: [] });
    expect(r.prompt.sections.map((s) => [s.role, s.label, s.stable])).toEqual([
      ['system', 'system', true],
      ['tools', 'tool-definitions', true],
      ['user', 'user-message', false],
    ]);
    const text = promptText(r.prompt);
    for (const t of catalog.tools) {
      const json = serializeToolDefinition(t.definition);
      expect(text.includes(json)).toBe(chosen.includes(t.id));
      if (!chosen.includes(t.id)) expect(text).not.toContain(`"name":"${t.name}"`);
    }
    expect(text).not.toContain('delete_branch');
    expect(p.describe!().details).toMatchObject({ subsetSize: 3, rule: 'history-usage', historyTasks: 4 });
  });

  it('does not depend on the evaluated tasks', async () => {
    const prompts: string[] = [];
    for (const evaluated of [EVALUATED, [task('x', [['notes/create_note']]), task('y', [['chat/post_message']])]]) {
      const p = createStaticPruningPipeline({ size: 3 });
      await p.prepare!(ctx(HISTORY));
      const r = await firstTurn(p, evaluated[0]!);
      prompts.push(r.prompt.sections.find((s) => s.label === 'tool-definitions')!.text);
    }
    expect(prompts[1]).toBe(prompts[0]);
  });

  it('is measured by the runner: same tool tokens every turn, missing tools show up in recall', async () => {
    const p = createStaticPruningPipeline({ size: 3 });
    await p.prepare!(ctx(HISTORY));
    const long = task('e3', [['chat/read_channel'], [], ['code/delete_branch'], ['code/search_code', 'code/delete_branch']]);
    const records = await runPipeline(p, [long], { catalog, tokens, seed: 42 });
    const chosen = catalog.tools.filter((t) => ['chat/read_channel', 'code/search_code', 'notes/list_notes'].includes(t.id));
    const expected = tokens.count(`${renderToolDefinitions(chosen)}\n`);
    expect(records.map((r) => r.toolTokens)).toEqual([expected, expected, expected, expected]);
    expect(records.map((r) => r.recall)).toEqual([1, null, 0, 0.5]);
    expect(records.map((r) => r.missingNeeded)).toEqual([false, false, true, true]);
    expect(records.map((r) => r.listedTools)).toEqual([3, 3, 3, 3]);
    expect(records.every((r) => r.discoveryCalls === 0)).toBe(true);
  });
});
