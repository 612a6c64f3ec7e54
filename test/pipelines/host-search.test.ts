import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import type { Catalog } from '../../src/catalog/types.ts';
import { createHostSearchPipeline, type HostSearchKind } from '../../src/pipelines/host-search/pipeline.ts';
import {
  checkedReferences,
  compileHostRegex,
  MAX_REGEX_CHARS,
  regexSearch,
  hostSearchText,
} from '../../src/pipelines/host-search/semantics.ts';
import type { Pipeline, PipelineContext, PromptSection, TurnResult } from '../../src/pipelines/types.ts';
import { PIPELINES } from '../../src/pipelines/registry.ts';
import { sharedParts, transcriptSection } from '../../src/prompt/shared-parts.ts';
import type { Task } from '../../src/tasks/types.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';
import { regexForRequest } from '../../src/sim/search-model.ts';
import { openAiNamespaces } from '../../src/pipelines/host-search/namespaces.ts';
import { catalogTool } from '../helpers/catalog-tool.ts';

const tokens = tokenCounter('cl100k_base');
const KINDS: readonly HostSearchKind[] = ['anthropic-bm25', 'anthropic-regex', 'openai', 'openai-client', 'client'];

const tool = catalogTool;

const obj = (properties: Record<string, unknown>) => ({ type: 'object', properties });

/** Each tool is findable by one word in one place only. */
const FIELDS_CATALOG: Catalog = {
  name: 'fields',
  source: 'test',
  servers: ['a', 'zebra'],
  tools: [
    tool('a', { name: 'get_weather', description: 'Current conditions.', inputSchema: obj({}) }),
    tool('a', { name: 'fetch_item', description: 'Returns an invoice.', inputSchema: obj({}) }),
    tool('a', { name: 'put_thing', description: 'Stores it.', inputSchema: obj({ parcel: { type: 'string' } }) }),
    tool('a', {
      name: 'run_job',
      description: 'Runs.',
      inputSchema: obj({ x: { type: 'string', description: 'the spreadsheet to open' } }),
    }),
    // Words that the host never sees: the server name, an authored summary, tags.
    tool(
      'zebra',
      { name: 'plain_one', description: 'Does one thing.', inputSchema: obj({}) },
      { summary: 'telescope', summarySource: 'authored', tags: ['volcano'] },
    ),
    tool('a', { name: 'plain_two', description: 'Does another thing.', inputSchema: obj({}) }),
  ],
};

function ctxOf(catalog: Catalog): PipelineContext {
  return { catalog, tokens, seed: 42, workDir: '', calibrationTasks: [], historyTasks: [], retriever: 'bm25' };
}

function task(id: string, turns: { user: string; tools: string[] }[]): Task {
  const all = [...new Set(turns.flatMap((t) => t.tools))].sort();
  return {
    id,
    kind: turns.length === 1 ? 'single' : 'multi',
    turns,
    groundTruthTools: all,
    initialState: { authScopes: [] },
    flags: { ambiguous: false },
    servers: [...new Set(all.map((t) => t.split('/')[0]!))].sort(),
  };
}

async function runTask(p: Pipeline, catalog: Catalog, t: Task): Promise<TurnResult[]> {
  p.startTask?.(t);
  const history: PromptSection[] = [];
  const out: TurnResult[] = [];
  for (const [i, turn] of t.turns.entries()) {
    out.push(
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
  return out;
}

/** The host's semantics under the lower searching model (one search per tool turn, the request as written). */
async function prepared(kind: HostSearchKind, catalog: Catalog, references?: number): Promise<Pipeline> {
  const p = createHostSearchPipeline({ kind, band: 'lower', ...(references ? { references } : {}) });
  await p.prepare!(ctxOf(catalog));
  return p;
}

describe('host tool search: the fields searched', () => {
  const cases: [string, string][] = [
    ['weather', 'a/get_weather'], // tool name
    ['invoice', 'a/fetch_item'], // description
    ['parcel', 'a/put_thing'], // argument name
    ['spreadsheet', 'a/run_job'], // argument description
  ];
  for (const kind of ['anthropic-bm25', 'anthropic-regex'] as const)
    it(`${kind} finds a tool by its name, description, argument names and argument descriptions, and by nothing else`, async () => {
      const p = await prepared(kind, FIELDS_CATALOG);
      for (const [word, id] of cases) {
        const [r] = await runTask(p, FIELDS_CATALOG, task(word, [{ user: `please use the ${word}`, tools: ['a/plain_two'] }]));
        expect(r!.exposure.fullSchemaTools, word).toContain(id);
      }
      for (const word of ['zebra', 'telescope', 'volcano']) {
        const [r] = await runTask(p, FIELDS_CATALOG, task(word, [{ user: `please use the ${word}`, tools: ['a/plain_two'] }]));
        // BM25 returns the documented 3 at least, whatever scores; a pattern only what it matches.
        if (kind === 'anthropic-regex') expect(r!.exposure.fullSchemaTools, word).toEqual([]);
        else expect(r!.exposure.fullSchemaTools, word).toHaveLength(3);
      }
    });
});

describe('OpenAI: namespaces as OpenAI advises them, loaded by path', () => {
  const many = Array.from({ length: 23 }, (_, i) =>
    tool('big', {
      name: `${['list', 'create', 'delete'][i % 3]}_${['issues', 'labels', 'milestones', 'projects', 'releases', 'webhooks', 'teams', 'repos'][i % 8]}_${i}`,
      description: 'Does a thing. Use only when needed; not for tables.',
      inputSchema: { type: 'object' },
    }),
  );
  const catalog: Catalog = { ...FIELDS_CATALOG, servers: [...FIELDS_CATALOG.servers, 'big'], tools: [...FIELDS_CATALOG.tools, ...many] };

  it('cuts a server into namespaces of fewer than 10 functions, described by their names in words', () => {
    const spaces = openAiNamespaces('big', catalog.tools);
    expect(spaces.length).toBe(3);
    expect(spaces.every((n) => n.tools.length < 10)).toBe(true);
    expect(spaces.flatMap((n) => n.tools).length).toBe(23);
    expect(new Set(spaces.map((n) => n.name)).size).toBe(3);
    for (const n of spaces) {
      expect(n.name).toMatch(/^big_[a-z0-9_-]+$/);
      // Words of the functions' names only: none of the descriptions' filler.
      expect(n.description).not.toMatch(/\b(only|not|tables|use|thing)\b/);
      for (const t of n.tools) expect(n.description).toContain(t.definition.name.split('_').slice(0, 2).join(' '));
    }
    // A small server is one namespace named after it.
    expect(openAiNamespaces('a', catalog.tools).map((n) => n.name)).toEqual(['a']);
  });

  it('asks for a namespace by path and loads every function of it', async () => {
    const p = await prepared('openai', catalog);
    const t = task('ns', [{ user: 'delete the old webhooks', tools: [many.find((m) => m.name.includes('webhooks'))!.id] }]);
    const [r] = await runTask(p, catalog, t);
    const call = r!.prompt.sections.find((s) => s.label === 'tool-search-call')!.text;
    const paths = JSON.parse(call.split('\n')[0]!).arguments.paths as string[];
    expect(paths).toHaveLength(1);
    const ns = openAiNamespaces('big', catalog.tools).find((n) => n.name === paths[0])!;
    expect(r!.exposure.fullSchemaTools.sort()).toEqual(ns.tools.map((x) => x.id).sort());
    const [searchCall, output] = call
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(searchCall).toMatchObject({ type: 'tool_search_call', execution: 'server', call_id: null });
    expect(output).toMatchObject({ type: 'tool_search_output', execution: 'server', call_id: null });
  });

  it('client-executed: the same namespaces up front, {query} answered by the application with its best functions', async () => {
    const p = await prepared('openai-client', catalog, 3);
    const target = many.find((m) => m.name.includes('webhooks'))!;
    const t = task('nc', [{ user: 'delete the old webhooks', tools: [target.id] }]);
    const [r] = await runTask(p, catalog, t);
    const shown = r!.prompt.sections.find((s) => s.label === 'namespaces')!.text;
    for (const n of openAiNamespaces('big', catalog.tools)) expect(shown).toContain(`"name":"${n.name}"`);
    const call = r!.prompt.sections.find((s) => s.label === 'tool-search-call')!.text;
    const [searchCall, output] = call
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(searchCall).toMatchObject({
      type: 'tool_search_call',
      execution: 'client',
      call_id: 'tsc_1',
      arguments: { query: 'delete the old webhooks' },
    });
    expect(output).toMatchObject({ type: 'tool_search_output', execution: 'client', call_id: 'tsc_1' });
    // The retriever's top 3 functions, not a whole namespace.
    expect(r!.exposure.fullSchemaTools).toHaveLength(3);
    expect(p.describe!().toolSearch).toMatchObject({ execution: 'client', provider: 'openai' });
  });
});

describe('host tool search: references, persistence, the regex limit', () => {
  const catalog = loadCatalog(join(process.cwd(), 'test', 'fixtures', 'small-catalog'));

  it('refuses a reference count outside the documented 3–5 and never returns more than asked', async () => {
    expect(() => checkedReferences(2)).toThrow(/3 to 5/);
    expect(() => checkedReferences(6)).toThrow(/3 to 5/);
    expect(checkedReferences(3)).toBe(3);
    for (const kind of KINDS)
      for (const n of [3, 5]) {
        const p = await prepared(kind, catalog, n);
        const [r] = await runTask(
          p,
          catalog,
          task('many', [
            { user: 'read the channel messages, post a message, search code, get a file, list notes', tools: ['chat/post_message'] },
          ]),
        );
        // OpenAI loads a whole namespace (fewer than 10 functions) whatever n is.
        expect(r!.exposure.fullSchemaTools.length, `${kind} ${n}`).toBeLessThanOrEqual(kind === 'openai' ? 9 : n);
        expect(r!.exposure.discoveryCalls).toHaveLength(1);
      }
    // The client's retriever always returns its top n.
    const p = await prepared('client', catalog, 3);
    const [r] = await runTask(p, catalog, task('c', [{ user: 'post a message', tools: ['chat/post_message'] }]));
    expect(r!.exposure.fullSchemaTools).toHaveLength(3);
  });

  it('keeps loaded definitions for the rest of the task, at the search, outside the stable prefix; one search per tool turn', async () => {
    for (const kind of KINDS) {
      const p = await prepared(kind, catalog);
      const t = task('persist', [
        { user: 'post a message to the chat channel', tools: ['chat/post_message'] },
        { user: 'thanks', tools: [] },
        { user: 'now search the code of the repositories', tools: ['code/search_code'] },
      ]);
      const [r1, r2, r3] = await runTask(p, catalog, t);
      const first = r1!.exposure.fullSchemaTools;
      expect(first.length, kind).toBeGreaterThan(0);
      expect(r2!.exposure.fullSchemaTools).toEqual(first);
      expect(r2!.exposure.discoveryCalls).toEqual([]);
      for (const id of first) expect(r3!.exposure.fullSchemaTools).toContain(id);
      const sections = r3!.prompt.sections;
      const stable = sections.findIndex((s) => !s.stable);
      const loaded = sections.filter((s) => s.label === 'loaded-tools');
      // The definitions each search loaded: every loaded tool once, none twice.
      expect(loaded.flatMap((s) => s.toolList!.map((d) => d.name)).sort()).toEqual(
        r3!.exposure.fullSchemaTools.map((id) => id.split('/')[1]).sort(),
      );
      expect(loaded.every((s) => !s.stable)).toBe(true);
      expect(sections.slice(0, stable).every((s) => s.label !== 'loaded-tools' && s.label !== 'tool-search-call')).toBe(true);
      expect(sections.filter((s) => s.label === 'tool-search-call')).toHaveLength(2);
      expect(sections.at(-1)!.role).toBe('user');
      // Placed where the providers place them: the first turn's search before the first turn's
      // transcript, so each turn's prompt starts with the previous one's (less its user message).
      expect(sections.findIndex((s) => s.label === 'loaded-tools')).toBeLessThan(sections.findIndex((s) => s.role === 'history'));
      for (const [a, b] of [
        [r1!, r2!],
        [r2!, r3!],
      ] as const) {
        const before = a.prompt.sections.slice(0, -1).map((s) => s.text);
        expect(
          b.prompt.sections.slice(0, before.length).map((s) => s.text),
          kind,
        ).toEqual(before);
      }
      // A new task starts with nothing loaded.
      const [fresh] = await runTask(p, catalog, task('fresh', [{ user: 'hello', tools: [] }]));
      expect(fresh!.exposure.fullSchemaTools).toEqual([]);
    }
  });

  it('writes patterns within the 200-character limit and refuses longer ones, as the host does', () => {
    expect(regexForRequest('check the weather in Paris')).toBe('(?i)check|weather');
    expect(regexForRequest('list all invoices')).toBe('(?i)list|invoic');
    const long = Array.from({ length: 80 }, (_, i) => `extraordinarily${String.fromCharCode(97 + (i % 26))}word`).join(' ');
    const pattern = regexForRequest(long, 40)!;
    expect(pattern.length).toBeLessThanOrEqual(MAX_REGEX_CHARS);
    expect(() => compileHostRegex(`(?i)${'a'.repeat(MAX_REGEX_CHARS)}`)).toThrow(/limit is 200/);
    expect(compileHostRegex('(?i)SLACK').test('post to slack')).toBe(true);
    expect(regexForRequest('the of and')).toBeUndefined();
  });

  it('regex matches are searched per field (a `.` does not cross from the name into the description)', () => {
    const texts = FIELDS_CATALOG.tools.map(hostSearchText);
    expect(regexSearch('get_.*', FIELDS_CATALOG.tools, texts, 5)).toEqual(['a/get_weather']);
    expect(regexSearch('weather.*Current', FIELDS_CATALOG.tools, texts, 5)).toEqual([]);
    expect(regexSearch('(?i)does', FIELDS_CATALOG.tools, texts, 1)).toEqual(['zebra/plain_one']);
  });
});

describe('host tool search: the query never comes from the ground truth', () => {
  const catalog = loadCatalog(join(process.cwd(), 'test', 'fixtures', 'small-catalog'));
  const ids = catalog.tools.map((t) => t.id);
  it('relabelling every turn’s needed tools changes no search query and no search result', async () => {
    const turns = [
      { user: 'post a message to the release channel', tools: ['chat/post_message'] },
      { user: 'and read what the team answered', tools: ['chat/read_channel', 'code/search_code'] },
      { user: 'good', tools: [] },
      { user: 'open the readme file of the web repository', tools: ['code/get_file'] },
    ];
    // Every needed tool replaced by another (same count per turn): only the labels change.
    const relabel = (xs: string[]) => xs.map((x) => ids[(ids.indexOf(x) + 3) % ids.length]!);
    const original = task('t', turns);
    const relabelled = task(
      't',
      turns.map((t) => ({ ...t, tools: relabel(t.tools) })),
    );
    expect(relabelled.turns.map((t) => t.tools)).not.toEqual(original.turns.map((t) => t.tools));
    for (const kind of KINDS) {
      const p = await prepared(kind, catalog);
      const a = await runTask(p, catalog, original);
      const b = await runTask(p, catalog, relabelled);
      const calls = (rs: TurnResult[]) => rs.map((r) => r.exposure.discoveryCalls);
      expect(calls(b), kind).toEqual(calls(a));
      expect(calls(a).flat().length).toBe(3);
    }
  });
});

describe('host tool search: registered with the methods', () => {
  it('every variant is a main method, with a reference where a host publishes it', () => {
    for (const id of [
      'anthropic-tool-search-bm25',
      'anthropic-tool-search-regex',
      'openai-tool-search',
      'openai-client-search',
      'client-search',
    ]) {
      const e = PIPELINES.find((x) => x.id === id);
      expect(e?.group, id).toBe('main');
      expect(e?.ablationOf).toBeUndefined();
    }
    expect(PIPELINES.find((x) => x.id === 'openai-tool-search')!.reference).toMatch(/developers\.openai\.com/);
  });
});
