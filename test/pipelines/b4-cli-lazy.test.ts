import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPipeline } from '../../src/measure/run-pipeline.ts';
import { loadCatalog } from '../../src/catalog/load.ts';
import { serializeToolDefinition } from '../../src/catalog/types.ts';
import { createCliLazyPipeline } from '../../src/pipelines/b4-cli-lazy/pipeline.ts';
import { renderHelp, renderList, wrap } from '../../src/pipelines/b4-cli-lazy/render.ts';
import type { Pipeline, PipelineContext, PromptSection, TurnResult } from '../../src/pipelines/types.ts';
import { promptText } from '../../src/pipelines/types.ts';
import { sharedParts, transcriptSection } from '../../src/prompt/shared-parts.ts';
import type { Task } from '../../src/tasks/types.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';
import { PROJECTION_PARAMS, withParam } from '../../src/sim/projection/params.ts';
import { PIPELINES } from '../../src/pipelines/registry.ts';

const catalog = loadCatalog(join(process.cwd(), 'test', 'fixtures', 'small-catalog'));
const tokens = tokenCounter('cl100k_base');
const ctx: PipelineContext = { catalog, tokens, seed: 42, workDir: '', calibrationTasks: [], historyTasks: [] };
const tool = (id: string) => catalog.tools.find((t) => t.id === id)!;

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

/** Drives a task the way the runner does, keeping each turn's result. */
async function runTask(p: Pipeline, t: Task): Promise<TurnResult[]> {
  p.startTask?.(t);
  const history: PromptSection[] = [];
  const results: TurnResult[] = [];
  for (const [i, turn] of t.turns.entries()) {
    results.push(
      await p.turn({
        task: t,
        turnIndex: i,
        turn,
        state: { authScopes: new Set(), toolOutputs: [] },
        shared: sharedParts(history, turn.user),
      }),
    );
    history.push(transcriptSection(catalog, i, turn));
  }
  return results;
}

const layout = (r: TurnResult) => r.prompt.sections.map((s) => (s.role === 'history' ? 'history' : s.label));
const toolSections = (r: TurnResult) => r.prompt.sections.filter((s) => s.role === 'tools');

// Turn 1 needs nothing, turn 2 one tool, turn 3 that tool again and a new one, turn 4 nothing.
const FOUR_TURNS = task('t1', [[], ['code/search_code'], ['code/search_code', 'chat/post_message'], []]);

describe('B4 CLI lazy discovery', () => {
  it('calls --list once, on the first turn that needs a tool, and --help only for needed tools not yet helped', async () => {
    const p = createCliLazyPipeline({ discovery: 'oracle' });
    await p.prepare!(ctx);
    const r = await runTask(p, FOUR_TURNS);
    expect(r.map((x) => x.exposure.discoveryCalls.map((c) => c.command))).toEqual([
      [],
      ['tooltax --list', 'tooltax --help code/search_code'],
      ['tooltax --help chat/post_message'],
      [],
    ]);
    const all = catalog.tools.map((t) => t.id);
    expect(r.map((x) => x.exposure.listedTools)).toEqual([[], all, all, all]);
    expect(r.map((x) => x.exposure.fullSchemaTools)).toEqual([
      [],
      ['code/search_code'],
      ['code/search_code', 'chat/post_message'],
      ['code/search_code', 'chat/post_message'],
    ]);
    expect(r[1]!.exposure.discoveryCalls[0]!.output).toBe(renderList(catalog.tools));
    expect(r[1]!.exposure.discoveryCalls[1]!.output).toBe(renderHelp('tooltax', tool('code/search_code')));
  });

  it('keeps discovery output in the context for the rest of the task, after the history, before the user', async () => {
    const p = createCliLazyPipeline({ discovery: 'oracle' });
    await p.prepare!(ctx);
    const r = await runTask(p, FOUR_TURNS);
    expect(layout(r[0]!)).toEqual(['system', 'cli-description', 'user-message']);
    expect(layout(r[1]!)).toEqual(['system', 'cli-description', 'history', 'cli-list', 'cli-help', 'user-message']);
    expect(layout(r[2]!)).toEqual(['system', 'cli-description', 'history', 'history', 'cli-list', 'cli-help', 'cli-help', 'user-message']);
    expect(layout(r[3]!)).toEqual([
      'system',
      'cli-description',
      'history',
      'history',
      'history',
      'cli-list',
      'cli-help',
      'cli-help',
      'user-message',
    ]);
    // Stable parts lead; discovery output appears mid-session, so it is not stable.
    for (const x of r)
      expect(x.prompt.sections.map((s) => s.stable)).toEqual(
        x.prompt.sections.map((s) => s.label === 'system' || s.label === 'cli-description'),
      );
    expect(toolSections(r[3]!).map((s) => s.text)).toEqual(toolSections(r[2]!).map((s) => s.text));
    const list = toolSections(r[1]!).find((s) => s.label === 'cli-list')!.text;
    expect(list.startsWith('$ tooltax --list\nAvailable tools:\n')).toBe(true);
    expect(list).toContain(
      "  code/search_code                          Search source files across the organisation's repositories for a text\n",
    );
  });

  it('never puts a JSON schema in the prompt', async () => {
    const p = createCliLazyPipeline({ discovery: 'oracle' });
    await p.prepare!(ctx);
    const r = await runTask(p, task('t2', [catalog.tools.map((t) => t.id)]));
    expect(r[0]!.exposure.fullSchemaTools).toHaveLength(catalog.tools.length);
    const text = promptText(r[0]!.prompt);
    for (const t of catalog.tools) {
      expect(text).not.toContain(serializeToolDefinition(t.definition));
      expect(text).not.toContain(JSON.stringify(t.definition.inputSchema));
    }
    for (const s of toolSections(r[0]!)) {
      expect(s.text).not.toMatch(/inputSchema|"properties"|"type"|\{"/);
    }
  });

  it('counts the discovery output in the measured tool tokens, turn by turn', async () => {
    const p = createCliLazyPipeline({ discovery: 'oracle' });
    await p.prepare!(ctx);
    const records = await runPipeline(p, [FOUR_TURNS], { catalog, tokens, seed: 42 });
    const r = await runTask(p, FOUR_TURNS);
    const description = tokens.count(toolSections(r[0]!)[0]!.text);
    const list = tokens.count(`$ tooltax --list\n${renderList(catalog.tools)}\n`);
    const help = (id: string) => tokens.count(`$ tooltax --help ${id}\n${renderHelp('tooltax', tool(id))}\n`);
    const [h1, h2] = [help('code/search_code'), help('chat/post_message')];
    expect(records.map((x) => x.toolTokens)).toEqual([
      description,
      description + list + h1,
      description + list + h1 + h2,
      description + list + h1 + h2,
    ]);
    expect(records[2]!.toolTokensByLabel).toEqual({ 'cli-description': description, 'cli-list': list, 'cli-help': h1 + h2 });
    expect(records.map((x) => x.discoveryCalls)).toEqual([0, 2, 1, 0]);
    expect(records.map((x) => x.recall)).toEqual([null, 1, 1, null]);
    expect(records.map((x) => x.neededListed)).toEqual([0, 1, 2, 0]);
    // Every prompt's token count is exact: the sum over sections equals the whole text.
    for (const x of r) expect(x.prompt.sections.reduce((n, s) => n + tokens.count(s.text), 0)).toBe(tokens.count(promptText(x.prompt)));
  });

  it('resets per task: a new task lists again and helps only its own tools', async () => {
    const p = createCliLazyPipeline({ discovery: 'oracle' });
    await p.prepare!(ctx);
    await runTask(p, FOUR_TURNS);
    const r = await runTask(p, task('t3', [['chat/post_message', 'chat/post_message']]));
    expect(r[0]!.exposure.discoveryCalls.map((c) => c.command)).toEqual(['tooltax --list', 'tooltax --help chat/post_message']);
    expect(r[0]!.exposure.fullSchemaTools).toEqual(['chat/post_message']);
    expect(layout(r[0]!)).toEqual(['system', 'cli-description', 'cli-list', 'cli-help', 'user-message']);
  });

  it('records its assumptions', () => {
    const d = createCliLazyPipeline({ cli: 'mcp', discovery: 'oracle' }).describe!();
    expect(d.details.cli).toBe('mcp');
    expect(JSON.stringify(d.details.assumptions)).toMatch(/exactly the tools a turn needs/);
    expect(JSON.stringify(createCliLazyPipeline().describe!().details.assumptions)).toMatch(/selection model/);
  });
});

describe('B4 discovery policy (not an oracle)', () => {
  const NEEDS = task('p1', [['code/search_code'], ['chat/post_message']]);
  const helps = (r: TurnResult[]) => r.map((x) => x.exposure.discoveryCalls.map((c) => c.command).filter((c) => c.includes('--help')));

  it('helps exactly the needed tools when the list cannot confuse (c = 0), like the oracle', async () => {
    const p = createCliLazyPipeline({ params: withParam(PROJECTION_PARAMS, 'selection.confusionPerSchema', 0) });
    await p.prepare!(ctx);
    const r = await runTask(p, NEEDS);
    expect(helps(r)).toEqual([['tooltax --help code/search_code'], ['tooltax --help chat/post_message']]);
    expect(r.map((x) => x.exposure.selectedTools)).toEqual([['code/search_code'], ['chat/post_message']]);
    expect(r[0]!.exposure.listedForm).toBe('cli-line');
  });

  it('pays for wrong picks: a confusable --help stays in context and a tool never found is not selected', async () => {
    // Always wrong, never a second look: one help of a sibling on the same server, needed tool not found.
    let params = withParam(PROJECTION_PARAMS, 'selection.confusionPerSchema', 1e9);
    params = withParam(params, 'discovery.secondLook', 0);
    const p = createCliLazyPipeline({ params });
    await p.prepare!(ctx);
    const r = await runTask(p, NEEDS);
    const first = helps(r)[0]!;
    expect(first).toHaveLength(1);
    expect(first[0]).toMatch(/^tooltax --help code\//);
    expect(first[0]).not.toBe('tooltax --help code/search_code');
    expect(r[0]!.exposure.selectedTools).toEqual([]);
    expect(r[0]!.exposure.fullSchemaTools).not.toContain('code/search_code');
    expect(r[1]!.prompt.sections.map((s) => s.text).join('\n')).toContain(first[0]);
    // With second looks, at most discovery.maxHelpAttempts helps per needed tool, all wrong.
    const q = createCliLazyPipeline({ params: withParam(params, 'discovery.secondLook', 1) });
    await q.prepare!(ctx);
    const r2 = await runTask(q, NEEDS);
    expect(helps(r2)[0]!.length).toBe(
      Math.min(PROJECTION_PARAMS['discovery.maxHelpAttempts'].value, catalog.tools.filter((t) => t.server === 'code').length - 1),
    );
  });

  it('is deterministic per seed and task, and its misses show in the measured recall', async () => {
    const params = withParam(PROJECTION_PARAMS, 'selection.confusionPerSchema', 0.5);
    const many = Array.from({ length: 40 }, (_, i) => task(`m${i}`, [['code/search_code', 'chat/post_message']]));
    const run = async () => {
      const p = createCliLazyPipeline({ params });
      await p.prepare!(ctx);
      return runPipeline(p, many, { catalog, tokens, seed: 42 });
    };
    const [a, b] = [await run(), await run()];
    expect(a).toEqual(b);
    const recall = a.reduce((n, x) => n + (x.recall ?? 0), 0) / a.length;
    expect(recall).toBeGreaterThan(0);
    expect(recall).toBeLessThan(1);
    expect(a.some((x) => x.discoveryCalls > 3)).toBe(true);
  });
});

describe('B4 CLI rendering (mcp2cli style)', () => {
  it('renders argparse help from the inputSchema', () => {
    expect(renderHelp('tooltax', tool('code/search_code'))).toBe(
      [
        'usage: tooltax code/search_code [-h] [--stdin] [--query QUERY] [--repo REPO]',
        '                                [--language {typescript,python,go}] [--regex]',
        '                                [--per-page PER_PAGE]',
        '',
        'options:',
        '  -h, --help            show this help message and exit',
        '  --stdin               Read JSON body/arguments from stdin',
        '  --query QUERY         Text or regular expression to look for',
        '  --repo REPO           Limit the search to this repository (owner/name)',
        '  --language {typescript,python,go}',
        '                        Limit the search to one language',
        '  --regex               Treat the query as a regular expression',
        '  --per-page PER_PAGE   Results per page',
      ].join('\n'),
    );
    const post = renderHelp('tooltax', tool('chat/post_message'));
    expect(post).toContain(
      '  --thread-ts THREAD_TS\n                        Timestamp of the parent message, to reply in its\n                        thread',
    );
    expect(post).toContain('(JSON\n                        object)');
    expect(renderHelp('tooltax', tool('notes/create_note'))).toContain('Labels to attach (JSON array)');
  });

  it('wraps like textwrap', () => {
    expect(wrap('  a  bb ccc dddd ', 6)).toEqual(['a bb', 'ccc', 'dddd']);
    expect(wrap('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
  });
});

describe('no oracle in the main table', () => {
  it('registers B4 with the discovery policy, and the oracle only as a labelled ablation of it', () => {
    const main = PIPELINES.filter((p) => p.group === 'main');
    const modes = main.map((p) => ({ id: p.id, mode: p.create().describe?.().discovery?.mode, ablationOf: p.ablationOf }));
    expect(modes.find((m) => m.id === 'b4-cli-lazy')).toEqual({ id: 'b4-cli-lazy', mode: 'policy', ablationOf: undefined });
    const oracles = modes.filter((m) => m.mode === 'oracle');
    expect(oracles).toEqual([{ id: 'b4-cli-lazy-oracle', mode: 'oracle', ablationOf: 'b4-cli-lazy' }]);
    expect(createCliLazyPipeline({ discovery: 'oracle' }).label).toMatch(/oracle discovery \(ablation\)/);
  });
});
