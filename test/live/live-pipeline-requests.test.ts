import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { runLiveTask, type LiveTaskOutcome } from '../../src/live/agent-loop.ts';
import { anthropicClient } from '../../src/live/anthropic-client.ts';
import { BudgetGuard } from '../../src/live/budget.ts';
import type { RetryPolicy } from '../../src/live/http.ts';
import { openAiClient } from '../../src/live/openai-client.ts';
import { providerToolName } from '../../src/live/prompt-bridge.ts';
import { ExchangeRecorder } from '../../src/live/recorder.ts';
import { pipelineLoopOptions } from '../../src/live/run-live.ts';
import { withExamples } from '../../src/pipelines/tool-examples/pipeline.ts';
import { PIPELINES } from '../../src/pipelines/registry.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { anthropicCodeAgent, codePipelineAgent } from './code-pipelines-stand-in.ts';
import { codeSearchTask } from './code-search-task.ts';
import { startScriptedLlmServer, type Script, type StandInRequest, type StandInServer } from './scripted-llm-server.ts';

/**
 * Each code and search pipeline run live against the scripted TEST STAND-IN (not a model): the
 * tools its documentation names (docs/pipelines.md, "Code execution"; docs/live.md, "Code
 * mode") are the tools of the captured request, by name and type, and the stand-in's use of them
 * completes the task. The host tool searches have theirs in ./live-tool-search.test.ts.
 */
const catalog = loadCatalog(join(process.cwd(), 'test', 'fixtures', 'small-catalog'));
const tokens = tokenCounter('cl100k_base');
const FAST: RetryPolicy = { attempts: 2, baseDelayMs: 1, maxDelayMs: 5, timeoutMs: 20_000 };
const CATALOG_NAMES = catalog.tools.map(providerToolName);

let server: StandInServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function runPipeline(
  id: string,
  provider: 'openai' | 'anthropic',
  script: Script,
): Promise<{ outcome: LiveTaskOutcome; requests: StandInRequest[] }> {
  const entry = PIPELINES.find((e) => e.id === id)!;
  const pipeline = entry.create();
  const workDir = makeTempDir('tooltax-live-pipe-');
  await pipeline.prepare?.({ catalog, tokens, seed: 42, workDir, calibrationTasks: [], historyTasks: [], encoder: undefined });
  server = await startScriptedLlmServer(script);
  const client = provider === 'openai' ? openAiClient('sk-test', server.url, FAST) : anthropicClient('sk-test', server.url, FAST);
  const outcome = await runLiveTask(pipeline, codeSearchTask(`${id}-t1`), {
    client,
    model: 'stand-in',
    catalog,
    tokens,
    budget: new BudgetGuard({ inputPerMTok: 0, outputPerMTok: 0, source: 'test' }, 1),
    recorder: new ExchangeRecorder(join(workDir, 'requests')),
    maxTokens: 256,
    maxSteps: 6,
    ...pipelineLoopOptions(pipeline),
  });
  return { outcome, requests: server.requests };
}

type ChatTool = { type: string; function: { name: string; description?: string; parameters?: unknown } };
const chatTools = (r: StandInRequest) => (r.body.tools ?? []) as ChatTool[];
const names = (r: StandInRequest) => chatTools(r).map((t) => t.function.name);

/** Every message's text of every request: nothing the bench simulates (`$ cat …`, `$ search …` outputs) may be in it. */
function simulatedLines(requests: readonly StandInRequest[]): string[] {
  return requests.flatMap((r) =>
    (r.body.messages ?? []).flatMap((m) =>
      (m.role === 'system' || m.role === 'user' ? String(m.content ?? '') : '').split('\n').filter((l) => l.startsWith('$ ')),
    ),
  );
}

const kinds = (o: LiveTaskOutcome) => o.turns.flatMap((t) => t.calls.map((c) => c.kind));
const validToolCalls = (o: LiveTaskOutcome) =>
  o.turns.flatMap((t) => t.calls.filter((c) => c.kind === 'tool' && c.argsValid).map((c) => c.toolId));

describe('live: each code pipeline sends its own tools (chat completions)', () => {
  it('code-mode: one codemode function', async () => {
    const { outcome, requests } = await runPipeline('code-mode', 'openai', codePipelineAgent());
    expect(chatTools(requests[0]!).map((t) => [t.type, t.function.name])).toEqual([['function', 'codemode']]);
    expect(outcome.success).toBe(true);
    expect(simulatedLines(requests)).toEqual([]);
  });

  it('search-execute: search and execute; the search answered with the Code Mode types, the code run in the sandbox', async () => {
    const { outcome, requests } = await runPipeline('search-execute', 'openai', codePipelineAgent());
    expect(chatTools(requests[0]!).map((t) => [t.type, t.function.name])).toEqual([
      ['function', 'search'],
      ['function', 'execute'],
    ]);
    const searched = (requests[1]!.body.messages ?? []).find((m) => m.role === 'tool')!;
    expect(String(searched.content)).toContain('declare const codemode');
    expect(kinds(outcome)).toEqual(['discovery', 'code', 'tool']);
    expect(validToolCalls(outcome)).toEqual(['code/search_code']);
    expect(outcome.success).toBe(true);
    expect(simulatedLines(requests)).toEqual([]);
  });

  it('code-mode-files: code_execution and a shell of the file tree; find, cat, then code importing the wrapper', async () => {
    const { outcome, requests } = await runPipeline('code-mode-files', 'openai', codePipelineAgent());
    expect(names(requests[0]!)).toEqual(['code_execution', 'shell']);
    expect(chatTools(requests[0]!).every((t) => t.type === 'function')).toBe(true);
    // The listing is the file tree; the file read exports the function the code then calls by the sandbox's name.
    const results = requests
      .at(-1)!
      .body.messages!.filter((m) => m.role === 'tool')
      .map((m) => String(m.content));
    expect(results[0]!.split('\n')).toContain('servers/code/search_code.ts');
    expect(results[1]).toContain('export async function code_search_code(');
    expect(kinds(outcome)).toEqual(['discovery', 'discovery', 'code', 'tool']);
    expect(validToolCalls(outcome)).toEqual(['code/search_code']);
    expect(outcome.success).toBe(true);
    expect(simulatedLines(requests)).toEqual([]);
  });

  it('code-mode-files-search: code_execution, search_tools and the file shell; the search answered by the pipeline', async () => {
    const { outcome, requests } = await runPipeline('code-mode-files-search', 'openai', codePipelineAgent());
    expect(names(requests[0]!)).toEqual(['code_execution', 'search_tools', 'shell']);
    const found = String(requests[1]!.body.messages!.at(-1)!.content);
    expect(found).toMatch(/^servers\/code\/search_code\.ts — /m);
    expect(kinds(outcome)).toEqual(['discovery', 'discovery', 'code', 'tool']);
    expect(outcome.success).toBe(true);
    expect(simulatedLines(requests)).toEqual([]);
  });

  it('programmatic-calls: every catalog tool and the client code_execution tool (no server-side execution here)', async () => {
    const { outcome, requests } = await runPipeline('programmatic-calls', 'openai', codePipelineAgent());
    expect(names(requests[0]!).sort()).toEqual([...CATALOG_NAMES, 'code_execution'].sort());
    expect(chatTools(requests[0]!).every((t) => t.type === 'function')).toBe(true);
    expect(kinds(outcome)).toEqual(['code', 'tool']);
    expect(outcome.success).toBe(true);
    expect(simulatedLines(requests)).toEqual([]);
  });

  it('tool-attention+code: the promoted definitions and the client code_execution tool', async () => {
    const { outcome, requests } = await runPipeline('tool-attention+code', 'openai', codePipelineAgent());
    const [code, ...promoted] = names(requests[0]!);
    expect(code).toBe('code_execution');
    expect(promoted.length).toBeGreaterThan(0);
    expect(promoted.every((n) => CATALOG_NAMES.includes(n))).toBe(true);
    expect(chatTools(requests[0]!).every((t) => t.type === 'function')).toBe(true);
    expect(kinds(outcome)).toContain('code');
    expect(simulatedLines(requests)).toEqual([]);
  });

  it('tool-examples: every catalog tool as a function, none in the system text (chat completions has no input_examples field)', async () => {
    const { outcome, requests } = await runPipeline('tool-examples', 'openai', codePipelineAgent());
    expect(names(requests[0]!).sort()).toEqual([...CATALOG_NAMES].sort());
    const system = String(requests[0]!.body.messages![0]!.content);
    expect(system).not.toContain('"input_examples"');
    expect(system).not.toContain('"inputSchema"');
    expect(outcome.success).toBe(true);
    expect(simulatedLines(requests)).toEqual([]);
  });
});

describe('live: Anthropic request shapes of the code pipelines', () => {
  type AnthropicTool = { type?: string; name: string; input_examples?: unknown[]; allowed_callers?: string[] };
  const anthropicTools = (r: StandInRequest) => (r.body as unknown as { tools: AnthropicTool[] }).tools;

  it('tool-examples: each tool with its input_examples, the advanced tool use beta header', async () => {
    const { outcome, requests } = await runPipeline('tool-examples', 'anthropic', anthropicCodeAgent());
    const tools = anthropicTools(requests[0]!);
    expect(tools.map((t) => t.name).sort()).toEqual([...CATALOG_NAMES].sort());
    for (const t of catalog.tools) {
      const sent = tools.find((x) => x.name === providerToolName(t))!;
      expect(sent.input_examples).toEqual(withExamples(t.definition).input_examples);
    }
    expect(requests[0]!.headers['anthropic-beta']).toBe('advanced-tool-use-2025-11-20');
    expect(outcome.success).toBe(true);
  });

  it('tool-examples: our count of the request has the examples where they are sent, and is B1’s where they are not', async () => {
    const sent = async (id: string, provider: 'openai' | 'anthropic') => {
      const { outcome } = await runPipeline(id, provider, provider === 'openai' ? codePipelineAgent() : anthropicCodeAgent());
      await server?.close();
      server = undefined;
      return outcome.turns[0]!.sentPromptTokens;
    };
    const b1 = await sent('b1-full-schema', 'openai');
    expect(await sent('tool-examples', 'openai')).toBe(b1);
    expect(await sent('tool-examples', 'anthropic')).toBeGreaterThan(b1);
  });

  it('programmatic-calls: code_execution_20250825 and allowed_callers on each tool; callers, code blocks and the container sent back', async () => {
    const { outcome, requests } = await runPipeline('programmatic-calls', 'anthropic', anthropicCodeAgent());
    const tools = anthropicTools(requests[0]!);
    expect(tools.filter((t) => t.type !== undefined)).toEqual([{ type: 'code_execution_20250825', name: 'code_execution' }]);
    const client = tools.filter((t) => t.type === undefined);
    expect(client.map((t) => t.name).sort()).toEqual([...CATALOG_NAMES].sort());
    for (const t of client) expect(t.allowed_callers).toEqual(['code_execution_20250825']);
    expect(requests[0]!.headers['anthropic-beta']).toBe('advanced-tool-use-2025-11-20');
    // The paused code's container is named again, and the assistant turn is sent back as it came.
    const second = requests[1]!.body as unknown as {
      container?: string;
      messages: { role: string; content: { type: string; caller?: unknown }[] }[];
    };
    expect(second.container).toBe('container_1');
    const assistant = second.messages.find((m) => m.role === 'assistant')!;
    expect(assistant.content.map((b) => b.type)).toEqual(['text', 'server_tool_use', 'tool_use']);
    expect(assistant.content[2]!.caller).toEqual({ type: 'code_execution_20250825', tool_id: 'srvtoolu_1' });
    expect(second.messages.at(-1)!.content.map((b) => b.type)).toEqual(['tool_result']);
    expect(kinds(outcome)).toEqual(['code', 'tool']);
    expect(validToolCalls(outcome)).toEqual(['code/search_code']);
    expect(outcome.success).toBe(true);
  });
});
