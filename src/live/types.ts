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
}

export type LiveMessage =
  | { role: 'user'; text: string }
  | { role: 'assistant'; text: string; toolCalls: LiveToolCall[] }
  | { role: 'tool'; results: { callId: string; name: string; content: string }[] };

export interface LiveToolSpec {
  /** Provider-safe name (`^[A-Za-z0-9_-]{1,64}$`). */
  name: string;
  description: string;
  parameters: JsonSchema;
}

export interface ChatRequest {
  model: string;
  system: string;
  messages: LiveMessage[];
  tools: LiveToolSpec[];
  maxTokens: number;
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
