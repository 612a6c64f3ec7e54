import { DEFAULT_RETRY, postJson, type RetryPolicy } from './http.ts';
import type { ChatClient, ChatExchange, ChatRequest, ChatResponse } from './types.ts';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
const ANTHROPIC_VERSION = '2023-06-01';

/** Anthropic Messages API (`POST {base}/v1/messages`) with client tools. */
export function anthropicClient(apiKey: string, baseUrl = ANTHROPIC_DEFAULT_BASE_URL, retry: RetryPolicy = DEFAULT_RETRY): ChatClient {
  const url = `${baseUrl.replace(/\/+$/, '')}/v1/messages`;
  return {
    provider: 'anthropic',
    async complete(request: ChatRequest): Promise<ChatExchange> {
      const requestBody = anthropicBody(request);
      const { body, attempts, latencyMs } = await postJson(
        url,
        { 'x-api-key': apiKey, 'anthropic-version': ANTHROPIC_VERSION },
        requestBody,
        retry,
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
          ...m.toolCalls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: parseOrWrap(c.argumentsText) })),
        ],
      });
    else
      messages.push({
        role: 'user',
        content: m.results.map((res) => ({ type: 'tool_result', tool_use_id: res.callId, content: res.content })),
      });
  }
  return {
    model: r.model,
    // One cache breakpoint after the stable part (tools, then system text: Anthropic's cache
    // order), as the projection assumes a prompt cache; shorter than the minimum, it is ignored.
    system: [{ type: 'text', text: r.system, cache_control: { type: 'ephemeral' } }],
    messages,
    ...(r.tools.length ? { tools: r.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters })) } : {}),
    max_tokens: r.maxTokens,
  };
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
    content?: { type?: string; text?: string; id?: string; name?: string; input?: unknown }[];
    stop_reason?: string;
    usage?: { input_tokens?: number; output_tokens?: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number };
  };
  if (!Array.isArray(b?.content)) throw new Error(`${url}: response at $.content: expected an array of content blocks`);
  const text = b.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text ?? '')
    .join('');
  const toolCalls = b.content
    .filter((c) => c.type === 'tool_use')
    .map((c, i) => ({ id: c.id ?? `toolu_${i}`, name: c.name ?? '', argumentsText: JSON.stringify(c.input ?? {}) }));
  const u = b.usage ?? {};
  return {
    text,
    toolCalls,
    // Anthropic's input_tokens excludes cache reads and writes; the prompt is their sum.
    usage: {
      inputTokens: (u.input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0),
      outputTokens: u.output_tokens ?? 0,
      cachedInputTokens: u.cache_read_input_tokens ?? 0,
    },
    stopReason: b.stop_reason ?? '',
  };
}
