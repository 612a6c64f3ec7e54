import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { KEY_VARIABLE, live, LiveUsageError, type LiveCommandOptions } from '../../src/commands/live.ts';
import { runLiveTask, type AgentLoopOptions } from '../../src/live/agent-loop.ts';
import { anthropicBody, parseAnthropic } from '../../src/live/anthropic-client.ts';
import { BudgetExceededError, BudgetGuard } from '../../src/live/budget.ts';
import { HttpError, type RetryPolicy } from '../../src/live/http.ts';
import { openAiBody, openAiClient } from '../../src/live/openai-client.ts';
import { listPrice } from '../../src/live/prices.ts';
import { ExchangeRecorder } from '../../src/live/recorder.ts';
import { splitCommandLine, ToolExecutor } from '../../src/live/tool-executor.ts';
import { createFullSchemaPipeline } from '../../src/pipelines/b1-full-schema/pipeline.ts';
import { renderHelp, renderList } from '../../src/pipelines/b4-cli-lazy/render.ts';
import { wilsonInterval } from '../../src/stats/wilson.ts';
import type { Task } from '../../src/tasks/types.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';
import {
  afterToolResult,
  startScriptedLlmServer,
  textReply,
  toolCallReply,
  type Script,
  type StandInServer,
} from './scripted-llm-server.ts';

const catalog = loadCatalog(join(process.cwd(), 'test', 'fixtures', 'small-catalog'));
const tokens = tokenCounter('cl100k_base');
const KEY = 'sk-test-standin-0123456789';
const FAST: RetryPolicy = { attempts: 3, baseDelayMs: 1, maxDelayMs: 5, timeoutMs: 2000 };
const FREE = { inputPerMTok: 1, outputPerMTok: 2, source: 'test' };
const dirs: string[] = [];
const servers: StandInServer[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'tooltax-live-'));
  dirs.push(d);
  return d;
};
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function serve(script: Script): Promise<StandInServer> {
  const s = await startScriptedLlmServer(script);
  servers.push(s);
  return s;
}

const task = (tools: string[][]): Task => ({
  id: 'live-t1',
  kind: tools.length === 1 ? 'single' : 'multi',
  turns: tools.map((t, i) => ({ user: `request ${i + 1}: search the code for login`, tools: t })),
  groundTruthTools: [...new Set(tools.flat())].sort(),
  initialState: { authScopes: ['code:read', 'chat:write'] },
  flags: { ambiguous: false },
  servers: [...new Set(tools.flat().map((t) => t.split('/')[0]!))].sort(),
});

async function loop(server: StandInServer, opts: Partial<AgentLoopOptions> = {}, t = task([['code/search_code']])) {
  const pipeline = createFullSchemaPipeline();
  await pipeline.prepare!({ catalog, tokens, seed: 42, workDir: '', calibrationTasks: [], historyTasks: [] });
  const dir = tmp();
  const outcome = await runLiveTask(pipeline, t, {
    client: openAiClient(KEY, server.url, FAST),
    model: 'stand-in',
    catalog,
    tokens,
    budget: new BudgetGuard(FREE, 10),
    recorder: new ExchangeRecorder(dir),
    maxTokens: 256,
    maxSteps: 4,
    gate: false,
    ...opts,
  });
  return { outcome, dir };
}

const call = (name: string, args: unknown) => ({ name, arguments: typeof args === 'string' ? args : JSON.stringify(args) });

describe('live agent loop against the scripted stand-in', () => {
  it('sends the exact prompt with schemas as provider tools, answers the call with the sample response and grades the turn', async () => {
    const server = await serve((r) =>
      afterToolResult(r) ? textReply(r) : toolCallReply(r, [call('code__search_code', { query: 'login' })]),
    );
    const { outcome, dir } = await loop(server);
    expect(outcome.success).toBe(true);
    expect(outcome.turns[0]!.calls).toEqual([
      { name: 'code__search_code', kind: 'tool', toolId: 'code/search_code', malformed: false, argsValid: true, gated: false },
    ]);
    expect(server.requests).toHaveLength(2);
    const first = server.requests[0]!.body;
    expect(first.tools!.map((t) => t.function.name).sort()).toEqual(catalog.tools.map((t) => t.id.replace('/', '__')).sort());
    expect(first.messages![0]!.role).toBe('system');
    expect(first.messages!.at(-1)!.content).toContain('User: request 1: search the code for login');
    // The tool result the model got is the catalog's sample response.
    const toolMsg = server.requests[1]!.body.messages!.find((m) => m.role === 'tool')!;
    expect(JSON.parse(String(toolMsg.content))).toEqual(catalog.tools.find((t) => t.id === 'code/search_code')!.sampleResponse);
    // Provider tokens recorded beside ours; every exchange saved, the key nowhere in them.
    expect(outcome.turns[0]!.providerPromptTokens).toBeGreaterThan(0);
    expect(outcome.turns[0]!.sentPromptTokens).toBeGreaterThan(0);
    expect(outcome.turns[0]!.measuredPromptTokens).toBeGreaterThan(0);
    const files = readdirSync(dir);
    expect(files).toHaveLength(2);
    for (const f of files) expect(readFileSync(join(dir, f), 'utf8')).not.toContain(KEY);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('fails a turn on a wrong tool or on schema-invalid arguments, and stops the task there', async () => {
    const wrong = await serve((r) =>
      afterToolResult(r) ? textReply(r) : toolCallReply(r, [call('chat__post_message', { channel: 'c', text: 't' })]),
    );
    const a = (await loop(wrong, {}, task([['code/search_code'], ['code/get_file']]))).outcome;
    expect(a.success).toBe(false);
    expect(a.turns).toHaveLength(1);
    expect(a.turns[0]!.wrongTool).toBe(true);
    expect(a.turnsCompleted).toBe(0);
    const invalid = await serve((r) => (afterToolResult(r) ? textReply(r) : toolCallReply(r, [call('code__search_code', { repo: 42 })])));
    const b = (await loop(invalid)).outcome;
    expect(b.success).toBe(false);
    expect(b.turns[0]!.calls[0]!.argsValid).toBe(false);
    const answer = JSON.parse(String(invalid.requests[1]!.body.messages!.at(-1)!.content));
    expect(answer.error).toBe('invalid_arguments');
  });

  it('handles malformed tool calls: the model gets an error, may retry, and the malformed call is counted', async () => {
    const server = await serve((r) => {
      if (r.index === 0) return toolCallReply(r, [call('code__search_code', '{"query": "login"')]);
      if (r.index === 1) return toolCallReply(r, [call('code__search_code', { query: 'login' })]);
      return textReply(r);
    });
    const { outcome } = await loop(server);
    expect(outcome.turns[0]!.calls.map((c) => [c.malformed, c.argsValid])).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(outcome.success).toBe(true);
    // A call to a tool that does not exist is answered with an error too.
    const ghost = await serve((r) => (afterToolResult(r) ? textReply(r) : toolCallReply(r, [call('no_such_tool', {})])));
    const g = (await loop(ghost)).outcome;
    expect(g.turns[0]!.calls[0]!.kind).toBe('invalid');
    expect(g.success).toBe(false);
  });

  it('retries rate limits and server errors with back-off, honouring Retry-After', async () => {
    const server = await serve((r) => {
      if (r.index === 0) return { kind: 'status', status: 429, retryAfterS: 0.01 };
      if (r.index === 1) return { kind: 'status', status: 503 };
      return afterToolResult(r) ? textReply(r) : toolCallReply(r, [call('code__search_code', { query: 'q' })]);
    });
    const { outcome, dir } = await loop(server);
    expect(outcome.success).toBe(true);
    expect(server.requests).toHaveLength(4);
    const saved = JSON.parse(readFileSync(join(dir, readdirSync(dir).sort()[0]!), 'utf8'));
    expect(saved.attempts).toBe(3);
  });

  it('times out a request that does not answer, retries, then fails the task and records the failure', async () => {
    const server = await serve((r) => ({ kind: 'delay', ms: 400, then: textReply(r) }));
    const { outcome, dir } = await loop(server, {
      client: openAiClient(KEY, server.url, { attempts: 2, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 60 }),
    });
    expect(outcome.success).toBe(false);
    expect(outcome.error).toMatch(/no response within 0.06 s, 2 attempt/);
    expect(server.requests).toHaveLength(2);
    expect(readdirSync(dir).some((f) => f.endsWith('.failed.json'))).toBe(true);
  });

  it('stops the run on an authentication error instead of failing every task', async () => {
    const server = await serve(() => ({ kind: 'status', status: 401, text: '{"error":"bad key"}' }));
    await expect(loop(server)).rejects.toBeInstanceOf(HttpError);
    expect(server.requests).toHaveLength(1);
  });

  it('fails the task on a response without a message, and stops the run on a body that is not JSON', async () => {
    const empty = await serve(() => ({ kind: 'reply', body: { choices: [] } }));
    const e = (await loop(empty)).outcome;
    expect(e.success).toBe(false);
    expect(e.error).toMatch(/response at \$\.choices\[0\]\.message: expected a message object/);
    const html = await serve(() => ({ kind: 'raw', text: '<html>gateway</html>' }));
    await expect(loop(html)).rejects.toThrow(/HTTP 200 after 1 attempt\(s\): response is not JSON/);
  });

  it('never sends a request that could pass the budget cap', async () => {
    const server = await serve((r) => textReply(r));
    // The small catalog's prompt is ~1k tokens: at $1,000/M input it would cost ~$1 > $0.01.
    await expect(
      loop(server, { budget: new BudgetGuard({ inputPerMTok: 1000, outputPerMTok: 1000, source: 'test' }, 0.01) }),
    ).rejects.toBeInstanceOf(BudgetExceededError);
    expect(server.requests).toHaveLength(0);
    // With room for one call but not two, the second is never sent.
    const guard = new BudgetGuard({ inputPerMTok: 1, outputPerMTok: 1, source: 'test' }, 0.002);
    const two = await serve((r) => (afterToolResult(r) ? textReply(r) : toolCallReply(r, [call('code__search_code', { query: 'q' })])));
    await expect(loop(two, { budget: guard })).rejects.toBeInstanceOf(BudgetExceededError);
    expect(two.requests).toHaveLength(1);
    expect(guard.spentUsd).toBeLessThanOrEqual(0.002);
  });
});

describe('tool executor', () => {
  const ex = new ToolExecutor(catalog);
  const toolByName = new Map(catalog.tools.map((t) => [t.id.replace('/', '__'), t]));
  const ctx = { catalog, toolByName, gate: false, offered: catalog.tools.map((t) => t.id) };
  const run = (name: string, args: unknown, extra = {}) =>
    ex.answer({ id: 'c1', name, argumentsText: JSON.stringify(args) }, { ...ctx, ...extra });

  it('rejects calls to tools not offered when the pipeline has a hallucination gate', () => {
    const r = run('code__search_code', { query: 'q' }, { gate: true, offered: ['chat/post_message'] });
    expect(r.record.gated).toBe(true);
    expect(JSON.parse(r.content)).toEqual({ error: 'tool_not_available', tool: 'code/search_code', available: ['chat/post_message'] });
    // Without the gate, a tool seen only by name is forwarded like any other call.
    const open = run('code__search_code', { query: 'q' }, { toolByName: new Map(), offered: ['chat/post_message'] });
    expect(open.record).toMatchObject({ kind: 'tool', toolId: 'code/search_code', gated: false, argsValid: true });
  });

  it('answers B4 CLI calls with the real --list and --help text and runs a tool from its flags', () => {
    const cli = { ...ctx, toolByName: new Map(), cli: 'tooltax' };
    expect(run('shell', { command: 'tooltax --list' }, cli).content).toBe(renderList(catalog.tools));
    const help = run('shell', { command: 'tooltax --help code/search_code' }, cli);
    expect(help.content).toBe(
      renderHelp(
        'tooltax',
        catalog.tools.find((t) => t.id === 'code/search_code')!,
      ),
    );
    expect(help.record.kind).toBe('discovery');
    const used = run('shell', { command: `tooltax code/search_code --query "login form" --repo acme/web` }, cli);
    expect(used.record).toMatchObject({ kind: 'tool', toolId: 'code/search_code', argsValid: true });
    expect(run('shell', { command: 'rm -rf /' }, cli).record.kind).toBe('invalid');
    expect(splitCommandLine(`a --b 'c d' "e \\"f\\""`)).toEqual(['a', '--b', 'c d', 'e "f"']);
  });
});

describe('live command', () => {
  const base: LiveCommandOptions = {
    provider: 'openai',
    model: 'stand-in',
    tasks: 2,
    maxUsd: 1,
    price: [0, 0],
    maxTokens: 256,
    maxSteps: 4,
    timeout: 10,
    retries: 1,
    backoffMs: 1,
    dryRun: false,
    seed: 42,
    tokenizer: 'cl100k_base',
    encoder: 'tfidf',
    pipelines: ['b1-full-schema'],
  };

  it('exits before any request when the key variable is not set, naming it', async () => {
    const server = await serve((r) => textReply(r));
    const saved = process.env[KEY_VARIABLE.openai];
    delete process.env[KEY_VARIABLE.openai];
    try {
      await expect(live({ ...base, baseUrl: server.url }, process.cwd(), () => {})).rejects.toThrow(
        new LiveUsageError('live --provider openai needs an API key in the environment variable OPENAI_API_KEY (or use --dry-run)'),
      );
      await expect(live({ ...base, provider: 'anthropic', baseUrl: server.url }, process.cwd(), () => {})).rejects.toThrow(
        /ANTHROPIC_API_KEY/,
      );
    } finally {
      if (saved !== undefined) process.env[KEY_VARIABLE.openai] = saved;
    }
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a model without a list price unless --price is given', async () => {
    process.env.OPENAI_API_KEY ??= KEY;
    await expect(live({ ...base, price: undefined }, process.cwd(), () => {})).rejects.toThrow(/no list price known for model "stand-in"/);
    expect(listPrice('claude-sonnet-4-5-20250929')?.inputPerMTok).toBe(3);
    expect(listPrice('gpt-4o-mini')?.inputPerMTok).toBe(0.15);
  });
});

describe('wire formats and statistics', () => {
  it('translates to and from the Anthropic messages format', () => {
    const body = anthropicBody({
      model: 'm',
      system: 'sys',
      maxTokens: 10,
      tools: [{ name: 't', description: 'd', parameters: { type: 'object' } }],
      messages: [
        { role: 'user', text: 'hi' },
        { role: 'assistant', text: '', toolCalls: [{ id: 'u1', name: 't', argumentsText: '{"a":1}' }] },
        { role: 'tool', results: [{ callId: 'u1', name: 't', content: '{}' }] },
      ],
    });
    expect(body).toMatchObject({
      system: [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }],
      tools: [{ name: 't', input_schema: { type: 'object' } }],
      messages: [
        { role: 'user' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'u1', input: { a: 1 } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'u1' }] },
      ],
    });
    const parsed = parseAnthropic(
      {
        content: [
          { type: 'text', text: 'ok' },
          { type: 'tool_use', id: 'x', name: 't', input: { a: 2 } },
        ],
        stop_reason: 'tool_use',
        usage: { input_tokens: 10, cache_read_input_tokens: 90, output_tokens: 5 },
      },
      'u',
    );
    expect(parsed).toEqual({
      text: 'ok',
      toolCalls: [{ id: 'x', name: 't', argumentsText: '{"a":2}' }],
      usage: { inputTokens: 100, outputTokens: 5, cachedInputTokens: 90 },
      stopReason: 'tool_use',
    });
    expect(() => parseAnthropic({}, 'https://x/v1/messages')).toThrow(
      'https://x/v1/messages: response at $.content: expected an array of content blocks',
    );
  });

  it('translates to the OpenAI chat-completions format, with the output limit field the endpoint takes', () => {
    const r = {
      model: 'm',
      system: 'sys',
      maxTokens: 10,
      tools: [{ name: 't', description: 'd', parameters: { type: 'object' } }],
      messages: [
        { role: 'user' as const, text: 'hi' },
        { role: 'assistant' as const, text: '', toolCalls: [{ id: 'c1', name: 't', argumentsText: '{"a":1' }] },
        { role: 'tool' as const, results: [{ callId: 'c1', name: 't', content: '{}' }] },
      ],
    };
    expect(openAiBody(r)).toEqual({
      model: 'm',
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 't', arguments: '{"a":1' } }] },
        { role: 'tool', tool_call_id: 'c1', content: '{}' },
      ],
      tools: [{ type: 'function', function: { name: 't', description: 'd', parameters: { type: 'object' } } }],
      max_tokens: 10,
    });
    expect(openAiBody(r, 'max_completion_tokens')).toMatchObject({ max_completion_tokens: 10 });
  });

  it('gives Wilson intervals that stay inside [0, 1]', () => {
    const zero = wilsonInterval(0, 10);
    expect(zero.low).toBe(0);
    expect(zero.high).toBeCloseTo(0.2775, 3);
    const half = wilsonInterval(5, 10);
    expect(half.low).toBeCloseTo(0.2366, 3);
    expect(half.high).toBeCloseTo(0.7634, 3);
  });
});
