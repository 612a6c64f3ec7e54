import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { live, LiveUsageError } from '../../src/commands/live.ts';
import { runLiveTask } from '../../src/live/agent-loop.ts';
import { anthropicClient } from '../../src/live/anthropic-client.ts';
import { BudgetGuard } from '../../src/live/budget.ts';
import { openAiClient } from '../../src/live/openai-client.ts';
import { openAiProviderClient, openAiResponsesClient } from '../../src/live/openai-responses-client.ts';
import { ExchangeRecorder } from '../../src/live/recorder.ts';
import { createHostSearchPipeline, type HostSearchKind } from '../../src/pipelines/host-search/pipeline.ts';
import type { Task } from '../../src/tasks/types.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';
import { standInLiveOptions } from '../helpers/small-runs.ts';
import { startScriptedLlmServer, type StandInRequest } from './scripted-llm-server.ts';
import { toolSearchAgent } from './tool-search-stand-in.ts';

// Each host tool search pipeline end to end through `live`, against the scripted stand-in
// answering in each provider's documented shapes (./tool-search-stand-in.ts): no network, no key.

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

type Json = Record<string, unknown>;
type Outcome = { pipeline: string; turns: { calls: { kind: string }[] }[] } & Json;

async function runLive(provider: 'anthropic' | 'openai', pipelines: string[], times = 1) {
  const server = await startScriptedLlmServer(toolSearchAgent());
  const out = mkdtempSync(join(tmpdir(), 'tooltax-live-search-'));
  dirs.push(out);
  const variable = provider === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY';
  const saved = process.env[variable];
  process.env[variable] = 'sk-standin-search';
  try {
    const read = () =>
      readFileSync(join(out, 'live-outcomes.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
    const runs: { status: number; sent: number; outcomes: Outcome[] }[] = [];
    for (let i = 0; i < times; i++) {
      const before = server.requests.length;
      const status = await live(standInLiveOptions(server.url, out, { provider, pipelines, tasks: 3 }), process.cwd(), () => {});
      runs.push({ status, sent: server.requests.length - before, outcomes: read() });
    }
    const status = runs[0]!.status;
    const table = (id: string) => JSON.parse(readFileSync(join(out, 'tables', `${id}.json`), 'utf8'));
    const outcomes = runs[0]!.outcomes;
    return { status, requests: server.requests, table, outcomes, runs };
  } finally {
    if (saved === undefined) delete process.env[variable];
    else process.env[variable] = saved;
    await server.close();
  }
}

const body = (r: StandInRequest) => r.body as unknown as { tools?: Json[]; messages?: { role: string; content: Json[] }[]; input?: Json[] };

// Whole `live` commands (measure, project, run): given the time a loaded machine needs.
describe('live: the host tool search pipelines against the stand-in', { timeout: 120_000 }, () => {
  it('Anthropic: the search tool type, every tool deferred, the beta header; server_tool_use and tool_reference blocks sent back', async () => {
    const { status, requests, table, outcomes } = await runLive('anthropic', [
      'anthropic-tool-search-bm25',
      'anthropic-tool-search-regex',
      'client-search',
    ]);
    expect(status).toBe(0);
    for (const r of requests) {
      expect(r.path).toMatch(/\/messages$/);
      expect(r.headers['anthropic-beta']).toBe('advanced-tool-use-2025-11-20');
      const [search, ...rest] = body(r).tools!;
      expect(rest.length).toBeGreaterThan(3);
      expect(rest.every((t) => t.defer_loading === true && typeof t.input_schema === 'object')).toBe(true);
      expect(search!.defer_loading).toBeUndefined();
    }
    const types = new Set(requests.map((r) => String(body(r).tools![0]!.type ?? body(r).tools![0]!.name)));
    expect(types).toEqual(new Set(['tool_search_tool_bm25_20251119', 'tool_search_tool_regex_20251119', 'tool_search']));
    // A later request sends back the search blocks: the server's, or the client's tool_result of references.
    const sentBack = requests.flatMap((r) => body(r).messages!.flatMap((m) => m.content.map((b) => String(b.type))));
    expect(sentBack).toContain('server_tool_use');
    expect(sentBack).toContain('tool_search_tool_result');
    const clientAnswers = requests.flatMap((r) =>
      body(r).messages!.flatMap((m) => m.content.filter((b) => b.type === 'tool_result' && Array.isArray(b.content))),
    );
    expect(clientAnswers.length).toBeGreaterThan(0);
    for (const a of clientAnswers) for (const c of a.content as Json[]) expect(c.type).toBe('tool_reference');
    // Roles alternate in every request.
    for (const r of requests) {
      const roles = body(r).messages!.map((m) => m.role);
      expect(roles.every((role, i) => i === 0 || role !== roles[i - 1])).toBe(true);
    }
    expectRun(table, outcomes, 3);
    expect(table('live-vs-projected').notes.join(' ')).toContain(
      "Host tool searches send every tool deferred with the provider's tool search",
    );
  });

  it('OpenAI: Responses requests with tool_search and namespaces of deferred functions; hosted and client-executed searches', async () => {
    const { status, requests, table, outcomes } = await runLive('openai', ['openai-tool-search', 'client-search']);
    expect(status).toBe(0);
    for (const r of requests) {
      expect(r.path).toBe('/v1/responses');
      const [search, ...namespaces] = body(r).tools!;
      expect(search!.type).toBe('tool_search');
      expect(namespaces.length).toBeGreaterThan(1);
      for (const ns of namespaces) {
        expect(ns).toMatchObject({ type: 'namespace', name: expect.any(String), description: expect.any(String) });
        expect((ns.tools as Json[]).every((f) => f.type === 'function' && f.defer_loading === true)).toBe(true);
      }
    }
    const executions = new Set(requests.map((r) => body(r).tools![0]!.execution ?? 'server'));
    expect(executions).toEqual(new Set(['server', 'client']));
    const items = requests.flatMap((r) => body(r).input!.map((i) => `${String(i.type ?? i.role)}:${String(i.execution ?? '')}`));
    expect(items).toContain('tool_search_call:server');
    expect(items).toContain('tool_search_output:server');
    expect(items).toContain('tool_search_call:client');
    expect(items).toContain('tool_search_output:client');
    expect(requests.some((r) => body(r).input!.some((i) => i.type === 'function_call' && typeof i.namespace === 'string'))).toBe(true);
    expectRun(table, outcomes, 2);
  });

  it('resumes from its journal: started again, it replays every call (the searches sent back alike) and sends nothing', async () => {
    for (const [provider, pipelines] of [
      ['openai', ['openai-tool-search', 'client-search']],
      ['anthropic', ['anthropic-tool-search-bm25', 'client-search']],
    ] as const) {
      const [first, again] = (await runLive(provider, [...pipelines], 2)).runs;
      expect(first!.sent).toBeGreaterThan(0);
      expect(again).toMatchObject({ status: 0, sent: 0 });
      const timeless = (outcomes: Outcome[]) => outcomes.map((o) => ({ ...o, turns: o.turns.map((t) => ({ ...t, latencyMs: 0 })) }));
      expect(timeless(again!.outcomes)).toEqual(timeless(first!.outcomes));
    }
  });

  it('refuses a host search pipeline on the other provider, before any request', async () => {
    const o = standInLiveOptions('http://127.0.0.1:9/v1', mkdtempSync(join(tmpdir(), 'tooltax-live-search-')), {
      pipelines: ['anthropic-tool-search-bm25'],
    });
    dirs.push(o.out!);
    process.env.OPENAI_API_KEY ??= 'sk-standin-search';
    await expect(live(o, process.cwd(), () => {})).rejects.toThrow(
      new LiveUsageError("live: anthropic-tool-search-bm25 sends Anthropic's tool search tool: run it with --provider anthropic"),
    );
  });
});

/** Every pipeline ran its tasks, called catalog tools, and live-tokens put the provider's count beside each profile's. */
function expectRun(table: (id: string) => { rows: Json[]; notes: string[] }, outcomes: Outcome[], pipelines: number) {
  const tokens = table('live-tokens');
  expect(tokens.rows).toHaveLength(pipelines);
  for (const row of tokens.rows) {
    expect(row.provider).toBeGreaterThan(0);
    expect(row['host:anthropic']).toBeGreaterThan(0);
    expect(typeof row['hostError:openai-responses']).toBe('number');
  }
  expect(new Set(outcomes.map((o) => o.pipeline)).size).toBe(pipelines);
  for (const o of outcomes) expect(o.turns.flatMap((t) => t.calls).some((c) => c.kind === 'tool')).toBe(true);
}

describe('live: a tool search task of two turns, against the stand-in', () => {
  const catalog = loadCatalog(join(process.cwd(), 'test', 'fixtures', 'small-catalog'));
  const tokens = tokenCounter('cl100k_base');
  const task: Task = {
    id: 'search-twice',
    kind: 'multi',
    turns: [
      { user: 'search the code for login', tools: ['code/search_code'] },
      { user: 'now search the code for logout', tools: ['code/search_code'] },
    ],
    groundTruthTools: ['code/search_code'],
    initialState: { authScopes: ['code:read'] },
    flags: { ambiguous: false },
    servers: ['code'],
  };
  const fast = { attempts: 1, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 5000 };

  async function run(kind: HostSearchKind, provider: 'anthropic' | 'openai') {
    const server = await startScriptedLlmServer(toolSearchAgent());
    try {
      const pipeline = createHostSearchPipeline({ kind, retriever: 'bm25' });
      await pipeline.prepare!({ catalog, tokens, seed: 42, workDir: '', calibrationTasks: [], historyTasks: [] });
      const dir = mkdtempSync(join(tmpdir(), 'tooltax-live-search-'));
      dirs.push(dir);
      const client =
        provider === 'anthropic'
          ? anthropicClient('sk-test', server.url, fast)
          : openAiProviderClient(openAiClient('sk-test', server.url, fast), openAiResponsesClient('sk-test', server.url, fast));
      const outcome = await runLiveTask(pipeline, task, {
        client,
        model: 'stand-in',
        catalog,
        tokens,
        budget: new BudgetGuard({ inputPerMTok: 1, outputPerMTok: 1, source: 'test' }, 10),
        recorder: new ExchangeRecorder(dir),
        maxTokens: 64,
        maxSteps: 4,
        gate: false,
        toolSearch: pipeline.describe!().toolSearch!,
        search: pipeline.search!,
      });
      return { outcome, requests: server.requests };
    } finally {
      await server.close();
    }
  }

  /** The first request of the second turn: the one after the first turn's text answer. */
  const secondTurnFirst = (requests: StandInRequest[], firstTurnCalls: number) => requests[firstTurnCalls]!;

  it("Anthropic server search: the second turn carries the first turn's search, and its tool is called without searching again", async () => {
    const { outcome, requests } = await run('anthropic-bm25', 'anthropic');
    expect(outcome.success).toBe(true);
    expect(outcome.turns.map((t) => t.modelCalls)).toEqual([2, 2]);
    const second = body(secondTurnFirst(requests, 2)).messages!;
    expect(second.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(second[1]!.content.map((b) => b.type)).toEqual(['server_tool_use', 'tool_search_tool_result']);
    expect(second[2]!.content.at(-1)!.text).toContain('User: now search the code for logout');
    // The stand-in found the tool loaded: no second search.
    const replies = requests
      .slice(2)
      .flatMap((r) => body(r).messages!.flatMap((m) => m.content.filter((b) => b.type === 'server_tool_use')));
    expect(replies).toHaveLength(2); // the carried one, in the turn's two requests
    expect(outcome.turns[1]!.providerPromptTokens).toBeGreaterThan(outcome.turns[0]!.providerPromptTokens!);
    expect(outcome.turns[0]!.calls.map((c) => c.toolId)).toEqual(['code/search_code']);
  });

  it('Anthropic client search: tool_reference blocks in a tool_result, carried into the second turn', async () => {
    const { outcome, requests } = await run('client', 'anthropic');
    expect(outcome.success).toBe(true);
    expect(outcome.turns[0]!.calls.map((c) => c.kind)).toEqual(['discovery', 'tool']);
    const second = body(secondTurnFirst(requests, 3)).messages!;
    expect(second.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(second[1]!.content.map((b) => `${String(b.type)}:${String(b.name)}`)).toEqual(['tool_use:tool_search']);
    const answer = second[2]!.content[0]!;
    expect(answer.type).toBe('tool_result');
    // The pipeline's search (bm25 here) returns its 5 references, best first.
    expect(answer.content).toHaveLength(5);
    expect((answer.content as Json[])[0]).toEqual({ type: 'tool_reference', tool_name: 'code__search_code' });
    expect(second[2]!.content.at(-1)!.type).toBe('text');
  });

  it('OpenAI hosted and client-executed searches: the search items carried into the second turn, namespaced calls', async () => {
    for (const [kind, calls] of [
      ['openai', 2],
      ['client', 3],
    ] as const) {
      const { outcome, requests } = await run(kind, 'openai');
      expect(outcome.success).toBe(true);
      const input = body(secondTurnFirst(requests, calls)).input!;
      const execution = kind === 'openai' ? 'server' : 'client';
      expect(input.map((i) => String(i.type ?? i.role))).toEqual(['user', 'tool_search_call', 'tool_search_output', 'user']);
      expect(input[1]).toMatchObject({ execution });
      const loaded = (input[2]!.tools as Json[]).flatMap((ns) => (ns.tools as Json[]).map((f) => `${String(ns.name)}/${String(f.name)}`));
      expect(loaded).toContain('code/search_code');
      const call = requests.flatMap((r) => body(r).input!).find((i) => i.type === 'function_call')!;
      expect(call).toMatchObject({ name: 'search_code', namespace: 'code' });
    }
  });
});
