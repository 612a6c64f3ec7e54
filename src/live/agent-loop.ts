import type { Catalog } from '../catalog/types.ts';
import type { AgentState, DiscoveryCall, Pipeline, PromptSection, ToolSearchSettings } from '../pipelines/types.ts';
import { sharedParts, transcriptSection } from '../prompt/shared-parts.ts';
import type { Task } from '../tasks/types.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import type { BudgetGuard } from './budget.ts';
import { EndpointError, HttpError, NoResponseError } from './http.ts';
import { CODE_TOOL_NAMES, livePrompt, PIPELINE_SEARCH_TOOL_NAMES, type LivePrompt } from './prompt-bridge.ts';
import type { ExchangeRecorder } from './recorder.ts';
import { ToolExecutor, type LiveCallRecord } from './tool-executor.ts';
import { InputError } from '../util/input-error.ts';
import { loadedBy } from './tool-search-requests.ts';
import type {
  CallCoordinates,
  ChatClient,
  ChatExchange,
  ChatRequest,
  ChatResponse,
  LiveMessage,
  LiveSearch,
  LiveToolCall,
} from './types.ts';
import type { McpTool } from '../catalog/types.ts';
import type { HostMeasure } from '../hosts/measure.ts';
import type { HostMessage } from '../hosts/types.ts';
import { hostRequestTokens } from '../hosts/request.ts';

export interface LiveTurnOutcome {
  turn: number;
  needed: string[];
  calls: LiveCallRecord[];
  /** Every needed tool called with schema-valid arguments (and, on a turn needing none, no tool called). */
  success: boolean;
  /** A catalog tool the turn does not need was called. */
  wrongTool: boolean;
  modelCalls: number;
  /** Our tokenizer's count of the turn's exact prompt (as the bench measures it), and of the first request as sent. */
  measuredPromptTokens: number;
  sentPromptTokens: number;
  /** Provider-reported input tokens of the first request of the turn (the pipeline's prompt); null when its usage was missing or implausible. */
  providerPromptTokens: number | null;
  /** Each host profile's count of that same first request, by profile id (src/hosts/request.ts). */
  hostPromptTokens?: Record<string, number>;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  latencyMs: number;
  costUsd: number;
  /** Model calls charged on our own token count, as the provider's usage was missing or implausible. */
  ownCountCalls: number;
  /** The model was still calling tools after the step limit. */
  hitStepLimit: boolean;
  error?: string;
}

export interface LiveTaskOutcome {
  pipeline: string;
  taskId: string;
  kind: string;
  success: boolean;
  /** Turns in the task, and turns that succeeded (the run stops a task at its first failed turn). */
  taskTurns: number;
  turnsCompleted: number;
  turns: LiveTurnOutcome[];
  costUsd: number;
  error?: string;
}

export interface AgentLoopOptions {
  client: ChatClient;
  model: string;
  catalog: Catalog;
  tokens: TokenCounter;
  budget: BudgetGuard;
  recorder: ExchangeRecorder;
  maxTokens: number;
  /** Model calls at most per turn. */
  maxSteps: number;
  /** The pipeline's settings declare a hallucination gate / a CLI discovery mode. */
  gate: boolean;
  cli?: string;
  /** The pipeline's model searches deferred tools (its settings' toolSearch); a client-executed search is answered with `search`. */
  toolSearch?: ToolSearchSettings;
  search?: Pipeline['search'];
  /** What the CLI's shell runs: B4's program (`cli`), or the wrapper file tree (`files`: `find`, `cat`). */
  shell?: 'cli' | 'files';
  /** The pipeline's own search tools (search-execute's `search`, code-mode-files' `search_tools`), answered by the pipeline. */
  answerTool?: Pipeline['answerTool'];
  /** Programmatic tool calling: the provider's code execution where it has one (its settings' codeExecution). */
  programmatic?: boolean;
  /** Host profiles that count each turn's first request beside the provider (live-tokens table). */
  hosts?: readonly HostMeasure[];
  /** Whether the endpoint has answered any request of the run yet (shared by the run's tasks). */
  endpoint?: EndpointState;
}

export interface EndpointState {
  /** Some request got an HTTP response. */
  answered: boolean;
  /** The last request that got none, and why. */
  lastNoResponse?: string;
}

/**
 * Runs one task with one pipeline against a live model. Each turn sends the pipeline's exact
 * prompt (src/live/prompt-bridge.ts), then loops: the model's tool calls are answered
 * (src/live/tool-executor.ts) until it answers in text or the step limit is hit. The history
 * carried to the next turn is the harness's shared transcript, the same for every pipeline and
 * the same as the bench measured, so the live run and the projection see identical prompts; a
 * turn is graded on what the model did within it. A task succeeds when every turn does.
 * Budget stops, authentication/request errors (4xx other than 429), a refused redirect and an
 * endpoint that never answered a connection end the run; a turn whose request still fails after
 * retries (timeouts, 5xx) fails its task, and the run goes on. Each call is charged on the
 * provider's usage, or on our own count when that is missing or implausible (src/live/budget.ts).
 */
export async function runLiveTask(pipeline: Pipeline, task: Task, opts: AgentLoopOptions): Promise<LiveTaskOutcome> {
  const executor = new ToolExecutor(opts.catalog);
  const nameOf = new Map(opts.catalog.tools.map((t) => [t.id, t.name]));
  pipeline.startTask?.(task);
  const history: PromptSection[] = [];
  const toolOutputs: string[] = [];
  const taskDiscovery: DiscoveryCall[] = [];
  const turns: LiveTurnOutcome[] = [];
  // The live model's tool searches of the task so far: carried into later turns, so what they loaded stays loaded.
  const searches: LiveSearch[] = [];
  let error: string | undefined;

  for (const [turnIndex, turn] of task.turns.entries()) {
    const state: AgentState = { authScopes: new Set(task.initialState.authScopes), toolOutputs: [...toolOutputs] };
    const result = await pipeline.turn({ task, turnIndex, turn, state, shared: sharedParts(history, turn.user) });
    taskDiscovery.push(...result.exposure.discoveryCalls);
    const prompt = livePrompt(result, opts.catalog, taskDiscovery, opts.cli !== undefined, opts.toolSearch);
    const measured = result.prompt.sections.reduce((n, s) => n + opts.tokens.count(s.text), 0);
    const { outcome, turnSearches } = await runTurn(
      turnIndex,
      turn.tools,
      prompt,
      result.exposure.fullSchemaTools,
      measured,
      executor,
      { pipeline: pipeline.id, taskId: task.id, searches },
      opts,
    );
    searches.push(...turnSearches);
    turns.push(outcome);
    if (outcome.error) error = outcome.error;
    if (!outcome.success) break;
    history.push(result.transcript?.section ?? transcriptSection(opts.catalog, turnIndex, turn));
    toolOutputs.push(...turn.tools.map((id) => nameOf.get(id)!));
  }
  const completed = turns.filter((t) => t.success).length;
  return {
    pipeline: pipeline.id,
    taskId: task.id,
    kind: task.kind,
    success: completed === task.turns.length,
    taskTurns: task.turns.length,
    turnsCompleted: completed,
    turns,
    costUsd: turns.reduce((s, t) => s + t.costUsd, 0),
    ...(error ? { error } : {}),
  };
}

async function runTurn(
  turnIndex: number,
  needed: string[],
  prompt: LivePrompt,
  offered: readonly string[],
  measuredPromptTokens: number,
  executor: ToolExecutor,
  task: { pipeline: string; taskId: string; searches: readonly LiveSearch[] },
  opts: AgentLoopOptions,
): Promise<{ outcome: LiveTurnOutcome; turnSearches: LiveSearch[] }> {
  const messages = openingMessages(prompt, task.searches);
  const turnSearches: LiveSearch[] = [];
  const calls: LiveCallRecord[] = [];
  const out = emptyTurnOutcome(turnIndex, needed, calls, measuredPromptTokens);
  const endpoint = opts.endpoint ?? { answered: false };
  const answering: Answering = { prompt, executor, offered, opts };
  let finished = false;
  // The provider's code execution container of this turn (Anthropic): named again while its code waits for tool results.
  let container: string | undefined;
  for (let step = 0; step < opts.maxSteps; step++) {
    const request = stepRequest(prompt, messages, opts, container);
    const sent = requestTokens(request, prompt, opts.tokens, opts.client.provider === 'anthropic');
    if (step === 0) out.sentPromptTokens = sent;
    if (step === 0 && opts.hosts?.length) out.hostPromptTokens = hostCounts(request, prompt, opts.hosts);
    opts.budget.check(sent, opts.maxTokens);
    const call: CallCoordinates = { pipeline: task.pipeline, taskId: task.taskId, turn: turnIndex, step };
    const sentStep = await sendStep(request, call, opts, endpoint);
    if (!sentStep.ok) {
      out.error = sentStep.error;
      break;
    }
    const { exchange } = sentStep;
    endpoint.answered = true;
    const { response } = exchange;
    chargeStep(out, exchange, sent, step, { ...call, model: opts.model }, opts);
    turnSearches.push(...(response.searches ?? []));
    container = response.container ?? container;
    // Code the provider ran itself (programmatic tool calling): a code call, as one run in the sandbox is.
    for (const b of (response.serverBlocks ?? []) as { type?: string; name?: unknown }[])
      if (b.type === 'server_tool_use') calls.push({ name: String(b.name), kind: 'code', malformed: false, argsValid: null, gated: false });
    if (response.toolCalls.length === 0) {
      finished = true;
      break;
    }
    const results = await answerToolCalls(response.toolCalls, answering, calls, turnSearches);
    messages.push(
      {
        role: 'assistant',
        text: response.text,
        toolCalls: response.toolCalls,
        ...(response.searches?.length ? { searches: response.searches } : {}),
        ...(response.serverBlocks?.length ? { serverBlocks: response.serverBlocks } : {}),
      },
      { role: 'tool', results },
    );
  }
  gradeTurn(out, calls, finished);
  return { outcome: out, turnSearches };
}

/** The turn's first messages: earlier searches go between the history and the user's message, where the pipeline keeps them. */
function openingMessages(prompt: LivePrompt, searches: readonly LiveSearch[]): LiveMessage[] {
  return searches.length && prompt.history
    ? [
        { role: 'user', text: prompt.history },
        { role: 'searches', searches: [...searches] },
        { role: 'user', text: prompt.afterHistory },
      ]
    : [{ role: 'user', text: prompt.user }];
}

/** A turn before its first call: nothing sent, charged or graded yet. */
function emptyTurnOutcome(turn: number, needed: string[], calls: LiveCallRecord[], measuredPromptTokens: number): LiveTurnOutcome {
  return {
    turn,
    needed,
    calls,
    success: false,
    wrongTool: false,
    modelCalls: 0,
    measuredPromptTokens,
    sentPromptTokens: 0,
    providerPromptTokens: null,
    inputTokens: 0,
    cachedInputTokens: 0,
    outputTokens: 0,
    latencyMs: 0,
    costUsd: 0,
    ownCountCalls: 0,
    hitStepLimit: false,
  };
}

/** One step's request: the pipeline's prompt and the turn's messages so far. */
function stepRequest(
  prompt: LivePrompt,
  messages: readonly LiveMessage[],
  opts: AgentLoopOptions,
  container: string | undefined,
): ChatRequest {
  return {
    model: opts.model,
    system: prompt.system,
    messages: [...messages],
    tools: prompt.tools,
    maxTokens: opts.maxTokens,
    ...(prompt.toolSearch ? { toolSearch: prompt.toolSearch } : {}),
    ...(opts.programmatic ? { programmatic: true } : {}),
    ...(container ? { container } : {}),
  };
}

/**
 * Sends one request: the exchange, or the error of a request that fails only its
 * task. An error that ends the run is thrown (see endsTheRun); every failure is saved.
 */
async function sendStep(
  request: ChatRequest,
  call: CallCoordinates,
  opts: AgentLoopOptions,
  endpoint: EndpointState,
): Promise<{ ok: true; exchange: ChatExchange } | { ok: false; error: string | undefined }> {
  try {
    return { ok: true, exchange: await opts.client.complete(request, call) };
  } catch (err) {
    // A recorded run that does not fit this one (resume, merge): the folder is wrong, not the endpoint.
    if (err instanceof InputError) throw err;
    opts.recorder.saveFailure({ ...call, model: opts.model }, request, (err as Error).message);
    const ends = endsTheRun(err, endpoint);
    if (err instanceof NoResponseError) endpoint.lastNoResponse = err.message;
    else endpoint.answered ||= err instanceof HttpError;
    if (ends) throw err instanceof NoResponseError ? new EndpointError(`cannot reach the endpoint: ${err.message}`) : err;
    return { ok: false, error: (err as Error).message };
  }
}

/** Charges an answered step to the budget, saves the exchange and adds its usage to the turn. */
function chargeStep(
  out: LiveTurnOutcome,
  exchange: ChatExchange,
  sent: number,
  step: number,
  meta: CallCoordinates & { model: string },
  opts: AgentLoopOptions,
): void {
  const charged = opts.budget.charge(exchange.response.usage, {
    inputTokens: sent,
    outputTokens: responseTokens(exchange.response, opts.tokens, opts.maxTokens),
  });
  opts.recorder.save(meta, exchange, charged);
  out.modelCalls++;
  if (step === 0 && charged.source === 'provider') out.providerPromptTokens = charged.inputTokens;
  if (charged.source === 'own count') out.ownCountCalls++;
  out.inputTokens += charged.inputTokens;
  out.cachedInputTokens += charged.cachedInputTokens;
  out.outputTokens += charged.outputTokens;
  out.latencyMs += exchange.latencyMs;
  out.costUsd += charged.costUsd;
}

/** What answers the model's tool calls within a turn. */
interface Answering {
  prompt: LivePrompt;
  executor: ToolExecutor;
  offered: readonly string[];
  opts: AgentLoopOptions;
}

/**
 * Answers each tool call of a response, in order: a client-executed search, a pipeline's own
 * search tool, the code tool, else a catalog tool (or the shell); records each call.
 */
async function answerToolCalls(
  toolCalls: readonly LiveToolCall[],
  { prompt, executor, offered, opts }: Answering,
  calls: LiveCallRecord[],
  turnSearches: LiveSearch[],
): Promise<Extract<LiveMessage, { role: 'tool' }>['results']> {
  const results: Extract<LiveMessage, { role: 'tool' }>['results'] = [];
  for (const call of toolCalls) {
    const ctx = { catalog: opts.catalog, toolByName: prompt.toolByName, gate: opts.gate, offered, cli: opts.cli, shell: opts.shell };
    if (isSearchCall(call, prompt)) {
      const { content, loaded, record } = await answerSearch(call, prompt, opts.search);
      calls.push(record);
      results.push({ callId: call.id, name: call.name, content, loaded });
      turnSearches.push({ execution: 'client', call, loaded });
      continue;
    }
    if (PIPELINE_SEARCH_TOOL_NAMES.has(call.name) && prompt.tools.some((t) => t.name === call.name)) {
      const { content, record } = await answerPipelineTool(call, opts.answerTool);
      calls.push(record);
      results.push({ callId: call.id, name: call.name, content });
      continue;
    }
    if (CODE_TOOL_NAMES.has(call.name) && prompt.tools.some((t) => t.name === call.name)) {
      const { content, records } = await executor.answerCode(call, ctx);
      calls.push(...records);
      results.push({ callId: call.id, name: call.name, content });
      continue;
    }
    const { content, record } = executor.answer(call, ctx);
    calls.push(record);
    results.push({ callId: call.id, name: call.name, content });
  }
  return results;
}

/** A turn succeeds when the model finished in text with every needed tool called validly (or, needing none, none called). */
function gradeTurn(out: LiveTurnOutcome, calls: readonly LiveCallRecord[], finished: boolean): void {
  const { needed } = out;
  out.hitStepLimit = !finished && !out.error;
  const validCalls = new Set(calls.filter((c) => c.kind === 'tool' && c.argsValid === true && !c.gated).map((c) => c.toolId));
  const toolCalls = calls.filter((c) => c.kind === 'tool');
  out.wrongTool = toolCalls.some((c) => c.toolId !== undefined && !needed.includes(c.toolId));
  out.success = !out.error && finished && (needed.length ? needed.every((id) => validCalls.has(id)) : toolCalls.length === 0);
}

/** A client-executed search: the Responses API's `tool_search_call`, or a call of the client's own search tool. */
function isSearchCall(call: LiveToolCall, prompt: LivePrompt): boolean {
  const ts = prompt.toolSearch;
  return ts?.execution === 'client' && (call.search === true || call.name === ts.clientTool.name);
}

/**
 * Answers a client-executed search with the pipeline's own search over the model's query: the
 * provider names of the tools it loads (the client renders them as `tool_reference` blocks or
 * a `tool_search_output`). A call without a query loads nothing and is graded as invalid.
 */
async function answerSearch(
  call: LiveToolCall,
  prompt: LivePrompt,
  search: AgentLoopOptions['search'],
): Promise<{ content: string; loaded: string[]; record: LiveCallRecord }> {
  const base = { name: call.name, malformed: false, argsValid: null, gated: false };
  let query: unknown;
  try {
    query = (JSON.parse(call.argumentsText) as { query?: unknown } | null)?.query;
  } catch {
    query = undefined;
  }
  if (call.argumentsOverLimit || typeof query !== 'string' || !search) {
    const error = search ? 'invalid_arguments' : 'no_search';
    return { content: JSON.stringify({ error }), loaded: [], record: { ...base, kind: 'invalid', malformed: true, error } };
  }
  const ids = await search({ query });
  const byId = new Map([...prompt.toolByName].map(([name, t]) => [t.id, name]));
  const loaded = ids.flatMap((id) => byId.get(id) ?? []);
  return { content: JSON.stringify({ loaded }), loaded, record: { ...base, kind: 'discovery' } };
}

/**
 * Answers a call of a code pipeline's own search tool with what the pipeline shows for it (the
 * same text the bench measures). Arguments that are not a JSON object, or a call the pipeline
 * cannot answer, get a tool error and are graded as invalid.
 */
async function answerPipelineTool(
  call: LiveToolCall,
  answerTool: AgentLoopOptions['answerTool'],
): Promise<{ content: string; record: LiveCallRecord }> {
  const base = { name: call.name, malformed: false, argsValid: null, gated: false };
  let input: unknown;
  try {
    input = call.argumentsOverLimit ? undefined : JSON.parse(call.argumentsText);
  } catch {
    input = undefined;
  }
  const args = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : null;
  const answer = args && answerTool ? await answerTool(call.name, args) : undefined;
  if (answer === undefined) {
    const error = args ? 'invalid_arguments' : 'malformed_arguments';
    return { content: JSON.stringify({ error }), record: { ...base, kind: 'invalid', malformed: !args, error } };
  }
  return { content: answer, record: { ...base, kind: 'discovery' } };
}

/**
 * Whether a request that failed for good (after its retries) ends the run; otherwise it fails
 * its task and the run goes on. A bad key, a bad model id, a rejected request (a 4xx other than
 * 429) or a redirect elsewhere fails every task alike. A connection that fails before anything
 * of the run has answered is a wrong --base-url or no network, not a model failing every task
 * (a timeout fails the task: a slow model).
 */
export function endsTheRun(err: unknown, endpoint: EndpointState): boolean {
  if (err instanceof EndpointError) return true;
  if (err instanceof HttpError) return err.status !== 429 && err.status < 500;
  return err instanceof NoResponseError && err.connectFailed && !endpoint.answered;
}

/**
 * Our tokenizer's count of a response: its text and each tool call's name and arguments. A
 * call whose arguments were over a limit (not kept) counts as a whole response of max_tokens,
 * the most an endpoint may bill for one.
 */
function responseTokens(r: ChatResponse, tokens: TokenCounter, maxTokens: number): number {
  let n = tokens.count(r.text);
  for (const c of r.toolCalls) n += c.argumentsOverLimit ? maxTokens : tokens.count(c.name) + tokens.count(c.argumentsText);
  return n;
}

/**
 * Each host profile's count of a request: the catalog tool behind each provider tool (under its
 * provider name), other tools (the shell) as sent; for a tool search, the search tool as the
 * pipeline stands it in and every definition a search in the request loaded (deferred ones cost
 * nothing), the searches' calls as text.
 */
function hostCounts(r: ChatRequest, prompt: LivePrompt, hosts: readonly HostMeasure[]): Record<string, number> {
  const tools: McpTool[] = r.tools.map((t) => {
    const def = prompt.toolByName.get(t.name)?.definition;
    const examples = t.inputExamples ? { input_examples: t.inputExamples } : {};
    return def ? { ...def, name: t.name, ...examples } : { name: t.name, description: t.description, inputSchema: t.parameters };
  });
  if (r.toolSearch) tools.push(...prompt.searchToolDefinitions, ...loadedDefinitions(r, prompt));
  const messages = r.messages.flatMap((m): HostMessage[] =>
    m.role === 'user'
      ? [{ role: 'user', text: m.text }]
      : m.role === 'assistant'
        ? [
            {
              role: 'assistant',
              text:
                m.text + m.toolCalls.map((c) => c.name + c.argumentsText).join('') + searchText(m.searches) + blocksText(m.serverBlocks),
            },
          ]
        : m.role === 'tool'
          ? m.results.map((x) => ({ role: 'tool', text: x.content }))
          : [{ role: 'assistant', text: searchText(m.searches) }],
  );
  // OpenAI's namespaces are seen up front: their names and descriptions count as text.
  const system = r.toolSearch?.namespaces.length ? `${r.system}\n${JSON.stringify(r.toolSearch.namespaces)}` : r.system;
  return Object.fromEntries(hosts.map((h) => [h.id, hostRequestTokens(h, { system, messages, tools })]));
}

/** The searches of a request (carried, or in an assistant message), and the definitions they loaded, by provider name. */
function requestSearches(r: ChatRequest): LiveSearch[] {
  return r.messages.flatMap((m) => (m.role === 'searches' ? m.searches : m.role === 'assistant' ? (m.searches ?? []) : []));
}

function loadedDefinitions(r: ChatRequest, prompt: LivePrompt): McpTool[] {
  const names = new Set([
    ...requestSearches(r).flatMap(loadedBy),
    ...r.messages.flatMap((m) => (m.role === 'tool' ? m.results.flatMap((x) => x.loaded ?? []) : [])),
  ]);
  return [...names].flatMap((n) => {
    const def = prompt.toolByName.get(n)?.definition;
    return def ? [{ ...def, name: n }] : [];
  });
}

/** A server search's blocks, or a client search's call, as text (the loaded definitions are counted as tools). */
function searchText(searches: readonly LiveSearch[] | undefined): string {
  return (searches ?? []).map((s) => (s.execution === 'server' ? JSON.stringify(s.blocks) : s.call.name + s.call.argumentsText)).join('');
}

/** The provider's code execution blocks sent back (the code it ran, what it printed), as text. */
function blocksText(blocks: readonly unknown[] | undefined): string {
  return blocks?.length ? JSON.stringify(blocks) : '';
}

/**
 * Our tokenizer's count of a request as sent: system, every message's text, tool results and the
 * tool specs' JSON. For a tool search: the search as declared and the namespaces' names and
 * descriptions on the Responses API (what the model sees up front), the searches' text and every definition they
 * loaded; the deferred definitions are not in the prompt.
 */
function requestTokens(r: ChatRequest, prompt: LivePrompt, tokens: TokenCounter, anthropic: boolean): number {
  let n = tokens.count(r.system);
  for (const m of r.messages) {
    if (m.role === 'user') n += tokens.count(m.text);
    else if (m.role === 'assistant')
      n +=
        tokens.count(m.text) +
        m.toolCalls.reduce((s, c) => s + tokens.count(c.name) + tokens.count(c.argumentsText), 0) +
        tokens.count(searchText(m.searches)) +
        tokens.count(blocksText(m.serverBlocks));
    else if (m.role === 'tool') n += m.results.reduce((s, res) => s + tokens.count(res.content), 0);
    else n += tokens.count(searchText(m.searches));
  }
  const ts = r.toolSearch;
  if (ts) {
    const declared = ts.execution === 'client' ? ts.clientTool : { type: ts.variant ?? 'tool_search' };
    // Namespaces are the Responses API's: a Messages request carries none.
    const namespaces = anthropic ? [] : ts.namespaces;
    n += tokens.count(JSON.stringify([declared, ...namespaces])) + tokens.count(JSON.stringify(loadedDefinitions(r, prompt)));
  }
  // Tool use examples count where the client sends them (Anthropic); chat completions has no field for them.
  const tools = anthropic ? r.tools : r.tools.map(({ inputExamples: _, ...t }) => t);
  return n + (tools.length ? tokens.count(JSON.stringify(tools)) : 0);
}
