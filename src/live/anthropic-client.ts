import { redactUrl, urlSecrets } from '../mcp/redact.ts';
import { DEFAULT_RETRY, endpointUrl, postJson, type RetryPolicy } from './http.ts';
import { boundArgumentsValue } from './tool-arguments.ts';
import { anthropicBetaHeaders, anthropicClientTools, anthropicCodeExecutionBlocks } from './anthropic-tool-requests.ts';
import { anthropicSearchAnswer, anthropicSearchTools, anthropicServerSearches } from './tool-search-requests.ts';
import type { ChatClient, ChatExchange, ChatRequest, ChatResponse, LiveSearch, LiveToolCall } from './types.ts';
import { providerUsage, reportedCount } from './usage.ts';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
const ANTHROPIC_VERSION = '2023-06-01';

/**
 * Anthropic Messages API (`POST {base}/v1/messages`) with client tools; a request with a tool
 * search carries the search tool, the deferred tools and the beta header
 * (./tool-search-requests.ts); tool use examples and programmatic tool calling are sent as
 * Anthropic documents them (./anthropic-tool-requests.ts), the code execution blocks and the
 * container of paused code sent back within the turn.
 */
export function anthropicClient(apiKey: string, baseUrl = ANTHROPIC_DEFAULT_BASE_URL, retry: RetryPolicy = DEFAULT_RETRY): ChatClient {
  const endpoint = endpointUrl(baseUrl, '/v1/messages');
  const url = redactUrl(endpoint);
  const secrets = [apiKey, ...urlSecrets(baseUrl)];
  return {
    provider: 'anthropic',
    url,
    body: anthropicBody,
    async complete(request: ChatRequest): Promise<ChatExchange> {
      const requestBody = anthropicBody(request);
      const { body, attempts, latencyMs } = await postJson(
        endpoint,
        { 'x-api-key': apiKey, 'anthropic-version': ANTHROPIC_VERSION, ...anthropicBetaHeaders(request) },
        requestBody,
        { policy: retry, secrets },
      );
      return { response: parseAnthropic(body, url), url, requestBody, responseBody: body, attempts, latencyMs };
    },
  };
}

export function anthropicBody(r: ChatRequest): Record<string, unknown> {
  const messages: Record<string, unknown>[] = [];
  for (const m of r.messages) {
    if (m.role === 'user') messages.push({ role: 'user', content: [{ type: 'text', text: m.text }] });
    else if (m.role === 'assistant')
      messages.push({
        role: 'assistant',
        content: [
          ...(m.text ? [{ type: 'text', text: m.text }] : []),
          ...(m.searches ?? []).flatMap((s) => (s.execution === 'server' ? s.blocks : [])),
          ...(m.serverBlocks ?? []),
          ...m.toolCalls.map(toolUse),
        ],
      });
    else if (m.role === 'tool')
      messages.push({
        role: 'user',
        content: m.results.map((res) =>
          res.loaded
            ? anthropicSearchAnswer(res.callId, res.loaded)
            : { type: 'tool_result', tool_use_id: res.callId, content: res.content },
        ),
      });
    else messages.push(...carriedSearches(m.searches));
  }
  const tools = [...(r.toolSearch ? anthropicSearchTools(r.toolSearch) : []), ...anthropicClientTools(r)];
  return {
    model: r.model,
    // One cache breakpoint after the stable part (tools, then system text: Anthropic's cache
    // order), as the projection assumes a prompt cache; shorter than the minimum, it is ignored.
    system: [{ type: 'text', text: r.system, cache_control: { type: 'ephemeral' } }],
    messages: joinSameRole(messages),
    ...(tools.length ? { tools } : {}),
    ...(r.container ? { container: r.container } : {}),
    max_tokens: r.maxTokens,
  };
}

/** Consecutive messages of one role as one message (what the API does with them anyway), so the roles alternate. */
function joinSameRole(messages: Record<string, unknown>[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const m of messages) {
    const last = out.at(-1);
    if (last && last.role === m.role) last.content = [...(last.content as unknown[]), ...(m.content as unknown[])];
    else out.push({ ...m });
  }
  return out;
}

const toolUse = (c: LiveToolCall) => ({
  type: 'tool_use',
  id: c.id,
  name: c.name,
  input: parseOrWrap(c.argumentsText),
  ...(c.caller !== undefined ? { caller: c.caller } : {}),
});

/**
 * Searches of earlier turns: an assistant message with their calls (and a server search's
 * result), then a user message with a client search's `tool_result`, joined with the user
 * message that follows (joinSameRole).
 */
function carriedSearches(searches: readonly LiveSearch[]): Record<string, unknown>[] {
  const calls = searches.flatMap((s) => (s.execution === 'server' ? s.blocks : [toolUse(s.call)]));
  const answers = searches.flatMap((s) => (s.execution === 'client' ? [anthropicSearchAnswer(s.call.id, s.loaded)] : []));
  return [{ role: 'assistant', content: calls }, ...(answers.length ? [{ role: 'user', content: answers }] : [])];
}

/** Anthropic's `input` must be an object: a malformed argument text is sent back wrapped, as the model wrote it. */
function parseOrWrap(text: string): unknown {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : { value: v };
  } catch {
    return { unparsed_arguments: text };
  }
}

export function parseAnthropic(body: unknown, url: string): ChatResponse {
  const b = body as {
    content?: { type?: string; text?: unknown; id?: unknown; name?: unknown; input?: unknown; caller?: unknown }[];
    stop_reason?: string;
    usage?: unknown;
    container?: { id?: unknown } | null;
  };
  if (!Array.isArray(b?.content)) throw new Error(`${url}: response at $.content: expected an array of content blocks`);
  const text = b.content
    .filter((c) => c.type === 'text')
    .map((c) => (typeof c.text === 'string' ? c.text : ''))
    .join('');
  const toolCalls = b.content
    .filter((c) => c.type === 'tool_use')
    .map((c, i) => {
      const bounded = boundArgumentsValue(c.input ?? {});
      return {
        id: typeof c.id === 'string' && c.id ? c.id : `toolu_${i}`,
        name: typeof c.name === 'string' ? c.name : '',
        argumentsText: bounded.argumentsText,
        ...(bounded.overLimit ? { argumentsOverLimit: bounded.overLimit } : {}),
        ...(c.caller !== undefined ? { caller: c.caller } : {}),
      };
    });
  const searches = anthropicServerSearches(b.content);
  const serverBlocks = anthropicCodeExecutionBlocks(b.content);
  const container = typeof b.container?.id === 'string' ? b.container.id : undefined;
  return {
    text,
    toolCalls,
    usage: anthropicUsage(b.usage),
    stopReason: b.stop_reason ?? '',
    ...(searches.length ? { searches } : {}),
    ...(serverBlocks.length ? { serverBlocks } : {}),
    ...(container ? { container } : {}),
  };
}

/** Anthropic's input_tokens excludes cache reads and writes; the prompt is their sum. Unreadable: null. */
function anthropicUsage(usage: unknown): ChatResponse['usage'] {
  const u = (usage ?? {}) as Record<string, unknown>;
  const optional = (v: unknown) => (v === undefined || v === null ? 0 : reportedCount(v));
  const cacheRead = optional(u.cache_read_input_tokens);
  const cacheWrite = optional(u.cache_creation_input_tokens);
  const input = reportedCount(u.input_tokens);
  if (cacheRead === undefined || cacheWrite === undefined || input === undefined) return null;
  return providerUsage(input + cacheRead + cacheWrite, u.output_tokens, cacheRead);
}
