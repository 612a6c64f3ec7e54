import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { standInLiveOptions } from '../helpers/small-runs.ts';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { live, LiveUsageError, type LiveCommandOptions } from '../../src/commands/live.ts';
import { runLiveTask } from '../../src/live/agent-loop.ts';
import { anthropicClient } from '../../src/live/anthropic-client.ts';
import { BudgetGuard } from '../../src/live/budget.ts';
import { EndpointError, type RetryPolicy } from '../../src/live/http.ts';
import { openAiClient } from '../../src/live/openai-client.ts';
import type { ModelPrice } from '../../src/live/prices.ts';
import { ExchangeRecorder } from '../../src/live/recorder.ts';
import { runLive, type LiveRunSettings } from '../../src/live/run-live.ts';
import type { ChatClient } from '../../src/live/types.ts';
import { urlSecrets } from '../../src/mcp/redact.ts';
import { createFullSchemaPipeline } from '../../src/pipelines/b1-full-schema/pipeline.ts';
import { PIPELINES } from '../../src/pipelines/registry.ts';
import { LOCK_FILE } from '../../src/results/lock.ts';
import type { Task } from '../../src/tasks/types.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';
import { InputError } from '../../src/util/input-error.ts';
import {
  afterToolResult,
  startScriptedLlmServer,
  textReply,
  toolCallReply,
  type Script,
  type StandInServer,
} from '../live/scripted-llm-server.ts';
import { codeSearchTask } from '../live/code-search-task.ts';
import { freePort } from '../mcp/helpers.ts';
import { makeTempDir } from '../helpers/temp.ts';

/**
 * A misbehaving LLM endpoint, in-process against the scripted stand-in on 127.0.0.1: usage
 * missing or garbled (the budget cap must hold on our own count), redirects to another origin,
 * keys echoed back, secrets in --base-url, endpoints that cannot be reached, tool calls with
 * giant or deeply nested arguments, and a live run into a folder a bench holds.
 */
const catalog = loadCatalog(join('test', 'fixtures', 'small-catalog'));
const tokens = tokenCounter('cl100k_base');
const KEY = 'sk-robust-0a1b2c3d4e5f60718293';
const FAST: RetryPolicy = { attempts: 1, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 5_000 };
const B1 = PIPELINES.find((p) => p.id === 'b1-full-schema')!;
const servers: StandInServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(script: Script): Promise<StandInServer> {
  const s = await startScriptedLlmServer(script);
  servers.push(s);
  return s;
}

const tasks = (n: number): Task[] => Array.from({ length: n }, (_, i) => codeSearchTask(`robust-${i}`));

/** Calls code__search_code, then answers in text: two model calls per task. */
const agent: Script = (r) =>
  afterToolResult(r) ? textReply(r) : toolCallReply(r, [{ name: 'code__search_code', arguments: '{"query":"login"}' }]);

/** Every file under `dir`, as text, by path. */
function filesUnder(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p, 'utf8'));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

function expectNowhere(secret: string, out: string, lines: readonly string[]): void {
  for (const [path, text] of filesUnder(out)) expect(text, `${path} holds the secret`).not.toContain(secret);
  expect(lines.join('\n')).not.toContain(secret);
}

interface RunOptions {
  client?: ChatClient;
  baseUrl: string;
  n?: number;
  price?: ModelPrice;
  maxUsd?: number;
}

async function runB1(o: RunOptions) {
  const out = makeTempDir('tooltax-live-robust-');
  const lines: string[] = [];
  const settings: LiveRunSettings = {
    client: o.client ?? openAiClient(KEY, o.baseUrl, FAST),
    provider: 'openai',
    model: 'stand-in',
    baseUrl: o.baseUrl,
    secrets: [KEY, ...urlSecrets(o.baseUrl)],
    price: o.price ?? { inputPerMTok: 1, outputPerMTok: 1, source: 'test' },
    priceFrom: 'test',
    maxUsd: o.maxUsd ?? 10,
    maxTokens: 256,
    maxSteps: 4,
  };
  const inputs = {
    catalog,
    tasks: tasks(o.n ?? 2),
    taskNote: 'test tasks',
    calibrationTasks: [],
    historyTasks: [],
    pipelines: [B1],
    tokens,
    tokenizer: 'cl100k_base',
    seed: 42,
    out,
    log: (l: string) => lines.push(l),
  };
  return { out, lines, run: () => runLive(inputs, settings) };
}

describe('live: the budget cap holds when the endpoint omits or garbles usage', () => {
  const PRICE = { inputPerMTok: 100, outputPerMTok: 100, source: 'test' };
  it.each([
    ['omitted', undefined],
    ['null', null],
    ['NaN, as strings', { prompt_tokens: 'NaN', completion_tokens: 'NaN' }],
    ['negative', { prompt_tokens: -1_000_000, completion_tokens: -5 }],
    ['implausibly small', { prompt_tokens: 1, completion_tokens: 0 }],
  ])('usage %s: charged on our own count, stopped before --max-usd', async (_, usage) => {
    const server = await serve((r) => {
      const step = agent(r) as { kind: 'reply'; body: Record<string, unknown> };
      if (usage === undefined) delete step.body.usage;
      else step.body.usage = usage;
      return step;
    });
    const { out, run } = await runB1({ baseUrl: server.url, n: 12, price: PRICE, maxUsd: 1 });
    const result = await run();
    // 24 calls without a cap; each costs ~$0.1–0.15 on our count.
    expect(result.stopped).toMatch(/^budget cap/);
    expect(result.spentUsd).toBeGreaterThan(0.5);
    expect(result.spentUsd).toBeLessThanOrEqual(1);
    expect(server.requests.length).toBeLessThan(24);
    const manifest = JSON.parse(readFileSync(join(out, 'live-run.json'), 'utf8'));
    expect(manifest.chargedOn).toEqual({ provider: 0, ownCount: server.requests.length });
    const saved = readdirSync(join(out, 'requests')).map((f) => JSON.parse(readFileSync(join(out, 'requests', f), 'utf8')));
    expect(saved).toHaveLength(server.requests.length);
    for (const s of saved) expect(s.charged).toMatchObject({ source: 'own count', reason: expect.any(String) });
    const notes = JSON.parse(readFileSync(join(out, 'tables', 'live-vs-projected.json'), 'utf8')).notes.join(' ');
    expect(notes).toContain(`${server.requests.length} of ${server.requests.length} model calls were charged on our own token count`);
  });

  it('charges a plausible usage as the provider reports it', async () => {
    const server = await serve(agent);
    const { out, run } = await runB1({ baseUrl: server.url, n: 2 });
    await run();
    expect(JSON.parse(readFileSync(join(out, 'live-run.json'), 'utf8')).chargedOn).toEqual({ provider: 4, ownCount: 0 });
  });
});

describe('live: redirects, echoed keys and secrets in --base-url', () => {
  it.each([
    ['openai', 307],
    ['openai', 308],
    ['anthropic', 307],
  ] as const)('%s: never follows a %i to another origin (one-line error; the other origin gets nothing)', async (provider, status) => {
    const elsewhere = await serve(agent);
    const redirecting = await serve((r) => ({ kind: 'redirect', status, location: `${elsewhere.url}${r.path.replace(/^\/v1/, '')}` }));
    const base = provider === 'openai' ? redirecting.url : redirecting.url.replace(/\/v1$/, '');
    const client = provider === 'openai' ? openAiClient(KEY, base, FAST) : anthropicClient(KEY, base, FAST);
    const { run } = await runB1({ client, baseUrl: base });
    const err = await run().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EndpointError);
    expect((err as Error).message).toMatch(
      new RegExp(`HTTP ${status} redirect to another origin \\(http://127\\.0\\.0\\.1:\\d+\\): not followed`),
    );
    expect((err as Error).message).not.toContain('\n');
    expect(redirecting.requests).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('follows a 307 within the same origin', async () => {
    let url = '';
    const server = await serve((r) =>
      r.path.startsWith('/old/') ? { kind: 'redirect', status: 307, location: `${url}/chat/completions` } : agent(r),
    );
    url = server.url;
    const { out, run } = await runB1({ baseUrl: server.url.replace(/\/v1$/, '/old/v1'), n: 1 });
    expect((await run()).stopped).toBeUndefined();
    expect(JSON.parse(readFileSync(join(out, 'live-outcomes.jsonl'), 'utf8')).success).toBe(true);
  });

  it('redacts a key the endpoint echoes back, in saved exchanges, outcomes, tables and messages', async () => {
    const server = await serve((r) => {
      if (r.index === 0)
        return toolCallReply(r, [
          { name: `lookup_${KEY}`, arguments: JSON.stringify({ note: `your key is ${KEY}` }) },
          { name: 'code__search_code', arguments: '{"query":"login"}' },
        ]);
      if (r.index === 1) return textReply(r, `Done with key ${KEY}.`);
      return { kind: 'status', status: 401, text: JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}` } }) };
    });
    const { out, lines, run } = await runB1({ baseUrl: server.url, n: 2 });
    const result = await run();
    expect(result.stopped).toMatch(/HTTP 401 .*Incorrect API key provided: <redacted>/);
    expect(result.stopped).not.toContain(KEY);
    expect(readdirSync(join(out, 'requests')).some((f) => f.endsWith('.failed.json'))).toBe(true);
    expectNowhere(KEY, out, lines);
  });

  it('keeps a query secret of --base-url out of stdout, live-run.json, tables and request files; the query still reaches the endpoint', async () => {
    const QUERY_SECRET = 'qs-7d6c5b4a39281706f5e4';
    const server = await serve(agent);
    const baseUrl = `${server.url}?key=${QUERY_SECRET}&api-version=2024-01`;
    const { out, lines, run } = await runB1({ baseUrl, n: 1 });
    expect((await run()).stopped).toBeUndefined();
    expect(server.requests[0]!.path).toBe('/v1/chat/completions');
    const manifest = JSON.parse(readFileSync(join(out, 'live-run.json'), 'utf8'));
    expect(manifest.baseUrl).toBe(`${server.url}?key=redacted&api-version=redacted`);
    expectNowhere(QUERY_SECRET, out, lines);
  });
});

describe('live: an endpoint that cannot be used is a one-line error and a non-zero exit', () => {
  const options = (baseUrl: string, out: string): LiveCommandOptions =>
    standInLiveOptions(baseUrl, out, { tasks: 1, maxSteps: 4, timeout: 5, pipelines: ['b1-full-schema'] });
  const withKey = async <T>(f: () => Promise<T>): Promise<T> => {
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = KEY;
    try {
      return await f();
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  };

  it.each([
    ['file:///etc/passwd', /--base-url file:\/\/\/etc\/passwd: expected an http\(s\) URL, found a file: URL/],
    ['ftp://127.0.0.1/v1', /expected an http\(s\) URL, found a ftp: URL/],
    ['not a url', /expected an http\(s\) URL, found an invalid URL/],
    ['http://alice:pw-5e4d3c2b1a09@127.0.0.1:9/v1', /credentials in the URL \(user:password@\) are not sent/],
  ])('refuses --base-url %s before any work', async (baseUrl, pattern) => {
    const out = join(makeTempDir('tooltax-live-robust-'), 'out');
    const err = await withKey(() => live(options(baseUrl, out), process.cwd(), () => {})).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LiveUsageError);
    expect((err as Error).message).toMatch(pattern);
    expect((err as Error).message).not.toContain('pw-5e4d3c2b1a09');
    expect(existsSync(out)).toBe(false);
  });

  it('stops at the first request when nothing listens at --base-url, naming the cause', async () => {
    const port = await freePort();
    const out = join(makeTempDir('tooltax-live-robust-'), 'out');
    const lines: string[] = [];
    const err = await withKey(() => live(options(`http://127.0.0.1:${port}/v1`, out), process.cwd(), (l) => lines.push(l))).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(EndpointError);
    expect((err as Error).message).toMatch(
      new RegExp(`^cannot reach the endpoint: http://127\\.0\\.0\\.1:${port}/v1/chat/completions: .*ECONNREFUSED.*, 2 attempt\\(s\\)$`),
    );
    // One failed request (two attempts), then nothing more.
    expect(readdirSync(join(out, 'requests'))).toHaveLength(1);
  });

  it('fails when every request got no response (all timed out)', async () => {
    const server = await serve((r) => ({ kind: 'delay', ms: 2_000, then: textReply(r) }));
    const client = openAiClient(KEY, server.url, { attempts: 1, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 100 });
    const { out, run } = await runB1({ client, baseUrl: server.url, n: 2 });
    const err = await run().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EndpointError);
    expect((err as Error).message).toMatch(/^no request got a response from the endpoint: .*no response within 0\.1 s/);
    // Both requests were sent (the journal's); on a busy machine the client may give up before the server sees one.
    expect(readdirSync(join(out, 'requests'))).toHaveLength(2);
    expect(JSON.parse(readFileSync(join(out, 'live-run.json'), 'utf8')).stopped).toMatch(/no request got a response/);
  });

  it('refuses an output folder a bench is writing (its lock), before any request', async () => {
    const server = await serve(agent);
    const out = makeTempDir('tooltax-live-robust-');
    // A live process that is not us: the parent of this test worker.
    writeFileSync(join(out, LOCK_FILE), JSON.stringify({ pid: process.ppid, startedAt: '2026-01-01T00:00:00Z', command: 'bench' }));
    const err = await withKey(() => live(options(server.url, out), process.cwd(), () => {})).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(new RegExp(`in use by pid ${process.ppid} \\(bench,`));
    expect(server.requests).toHaveLength(0);
    expect(readdirSync(out)).toEqual([LOCK_FILE]);
  });
});

describe('live: tool calls with giant or deeply nested arguments are a tool error, not a crash', () => {
  const deepText = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
  const openAiRaw = (r: { index: number }, args: string, argsAsValue: boolean) =>
    `{"choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_${r.index}","type":"function","function":{"name":"code__search_code","arguments":${argsAsValue ? args : JSON.stringify(args)}}}]}}],"usage":{"prompt_tokens":2000,"completion_tokens":20}}`;
  const anthropicRaw = (input: string) =>
    `{"content":[{"type":"tool_use","id":"toolu_1","name":"code__search_code","input":${input}}],"stop_reason":"tool_use","usage":{"input_tokens":2000,"output_tokens":20}}`;
  const anthropicText =
    '{"content":[{"type":"text","text":"Done."}],"stop_reason":"end_turn","usage":{"input_tokens":2000,"output_tokens":5}}';

  it.each([
    ['openai: arguments text nested 200,000 deep', 'openai', () => openAiRaw({ index: 0 }, deepText(200_000), false)],
    ['openai: arguments as a JSON value nested 200,000 deep', 'openai', () => openAiRaw({ index: 0 }, deepText(200_000), true)],
    ['openai: 3 MB of arguments', 'openai', () => openAiRaw({ index: 0 }, JSON.stringify({ query: 'x'.repeat(3_000_000) }), false)],
    ['anthropic: input nested 200,000 deep', 'anthropic', () => anthropicRaw(deepText(200_000))],
  ] as const)('%s', async (_, provider, body) => {
    const server = await serve((r) => {
      if (!afterToolResult(r) && !(provider === 'anthropic' && r.index > 0)) return { kind: 'raw', text: body() };
      return provider === 'openai' ? textReply(r) : { kind: 'raw', text: anthropicText };
    });
    const base = provider === 'openai' ? server.url : server.url.replace(/\/v1$/, '');
    const client = provider === 'openai' ? openAiClient(KEY, base, FAST) : anthropicClient(KEY, base, FAST);
    const pipeline = createFullSchemaPipeline();
    await pipeline.prepare!({ catalog, tokens, seed: 42, workDir: '', calibrationTasks: [], historyTasks: [] });
    const dir = makeTempDir('tooltax-live-robust-');
    const outcome = await runLiveTask(pipeline, tasks(1)[0]!, {
      client,
      model: 'stand-in',
      catalog,
      tokens,
      budget: new BudgetGuard({ inputPerMTok: 1, outputPerMTok: 1, source: 'test' }, 10),
      recorder: new ExchangeRecorder(dir, [KEY]),
      maxTokens: 256,
      maxSteps: 4,
      gate: false,
    });
    expect(outcome.error).toBeUndefined();
    expect(outcome.turns[0]!.calls).toEqual([
      expect.objectContaining({ kind: 'tool', toolId: 'code/search_code', argsValid: false, error: 'arguments_over_limit' }),
    ]);
    // The model got the error back; what it wrote was not sent back.
    expect(server.requests).toHaveLength(2);
    const second = JSON.stringify(server.requests[1]!.body);
    expect(second.length).toBeLessThan(100_000);
    expect(second).toContain('arguments_over_limit');
    // Both exchanges saved.
    expect(readdirSync(dir)).toHaveLength(2);
  });
});
