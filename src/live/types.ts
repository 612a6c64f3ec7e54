import type { JsonSchema } from '../catalog/types.ts';

/**
 * The provider-neutral shape of a chat with tools. The two clients (OpenAI-compatible chat
 * completions, Anthropic messages) translate it to and from their wire formats.
 */

export interface LiveToolCall {
  /** The provider's call id (answered by a tool result with the same id). */
  id: string;
  name: string;
  /** Arguments exactly as the model wrote them (JSON text; may be malformed), or a stand-in when over a limit. */
  argumentsText: string;
  /** Set when the arguments were over a limit of src/live/tool-arguments.ts (and so not kept): why. */
  argumentsOverLimit?: string;
  /** Responses API: the namespace of a namespaced function (`name` is then the provider name, `<namespace>__<function>`). */
  namespace?: string;
  /** A client-executed tool search call (the model asks the client to search the deferred tools); answered with the tools it loads. */
  search?: boolean;
  /** Anthropic: who called the tool (`{"type": "code_execution_20250825", "tool_id": …}` for a call from the host's code execution), sent back as it came. */
  caller?: unknown;
}

/**
 * One tool search of the conversation, sent back so that the tools it loaded stay loaded (both
 * providers expand a search's references only where the search is in the conversation).
 */
export type LiveSearch =
  /** Run by the provider: its own blocks (Anthropic `server_tool_use` + `tool_search_tool_result`; Responses `tool_search_call` + `tool_search_output`), sent back verbatim. */
  | { execution: 'server'; blocks: unknown[] }
  /** Run by the client: the model's call and the provider names of the tools the client loaded. */
  | { execution: 'client'; call: LiveToolCall; loaded: string[] };

export type LiveMessage =
  | { role: 'user'; text: string }
  | { role: 'assistant'; text: string; toolCalls: LiveToolCall[]; searches?: LiveSearch[]; serverBlocks?: unknown[] }
  /** A tool result; `loaded` answers a client-executed search: the provider names of the tools it loads. */
  | { role: 'tool'; results: { callId: string; name: string; content: string; loaded?: string[] }[] }
  /** Searches of earlier turns of the task, carried into this turn's request (between the history and the user's message). */
  | { role: 'searches'; searches: LiveSearch[] };

export interface LiveToolSpec {
  /** Provider-safe name (`^[A-Za-z0-9_-]{1,64}$`). */
  name: string;
  description: string;
  parameters: JsonSchema;
  /** The server the tool belongs to (a Responses API namespace, for tool search). */
  namespace?: string;
  /** Tool use examples (Anthropic's `input_examples`), sent where the provider has the field. */
  inputExamples?: unknown[];
}

/**
 * A request whose tools are deferred and found by a tool search (the hosts' tool search,
 * src/pipelines/host-search): how the client declares the search and the deferred tools.
 */
export interface LiveToolSearch {
  /** Who runs the search: the provider (Anthropic's tool search tool, OpenAI's hosted tool_search) or the client. */
  execution: 'server' | 'client';
  /** Anthropic's server-side variant. */
  variant?: 'bm25' | 'regex';
  /** Every deferred tool (`defer_loading: true`), with its namespace. */
  deferred: LiveToolSpec[];
  /** OpenAI: one namespace per server, its name and description visible up front. */
  namespaces: { name: string; description: string }[];
  /** The client-executed search tool the model calls (its name, description and input). */
  clientTool: LiveToolSpec;
}

export interface ChatRequest {
  model: string;
  system: string;
  messages: LiveMessage[];
  /** Tools sent as they are (not deferred). */
  tools: LiveToolSpec[];
  maxTokens: number;
  toolSearch?: LiveToolSearch;
  /**
   * Programmatic tool calling: where the provider runs code itself (Anthropic's code execution
   * tool), the code tool is the provider's and every other tool may be called from its code
   * (`allowed_callers`); elsewhere the code tool is the client's, run in the sandbox.
   */
  programmatic?: boolean;
  /** Anthropic: the code execution container of this turn's paused code, which the next request must name. */
  container?: string;
}

export interface LiveUsage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens the provider read from its prompt cache (0 when it reports none). */
  cachedInputTokens: number;
}

export interface ChatResponse {
  text: string;
  toolCalls: LiveToolCall[];
  /** What the provider reports it billed; null when the response carries no readable usage (src/live/usage.ts). */
  usage: LiveUsage | null;
  stopReason: string;
  /** Tool searches the provider ran within this response (server-side tool search), in order. */
  searches?: LiveSearch[];
  /** Other blocks the provider's own tools wrote (Anthropic's code execution: `server_tool_use`, its result), sent back within the turn. */
  serverBlocks?: unknown[];
  /** Anthropic: the code execution container the response names. */
  container?: string;
}

/** What a client returns: the parsed response plus the wire exchange, for the saved transcript. */
export interface ChatExchange {
  response: ChatResponse;
  /** The endpoint, without credentials or query values. */
  url: string;
  /** The request body sent (no headers: keys never leave the client). */
  requestBody: unknown;
  /** The provider's response body as received. */
  responseBody: unknown;
  attempts: number;
  latencyMs: number;
}

/** Which model call of a run a request is: its pipeline, task, turn and step (the run's order of calls is by these). */
export interface CallCoordinates {
  pipeline: string;
  taskId: string;
  turn: number;
  step: number;
}

export interface ChatClient {
  readonly provider: 'openai' | 'anthropic';
  /** The endpoint, without credentials or query values. */
  readonly url: string;
  /** The wire body `complete` sends for a request (no headers). */
  body(request: ChatRequest): unknown;
  /** `call` says which call of the run this is (a journal of the run keys its record by it; a client may ignore it). */
  complete(request: ChatRequest, call: CallCoordinates): Promise<ChatExchange>;
}
