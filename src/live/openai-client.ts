import { redactUrl, urlSecrets } from '../mcp/redact.ts';
import { DEFAULT_RETRY, endpointUrl, postJson, type RetryPolicy } from './http.ts';
import { boundArgumentsText, boundArgumentsValue } from './tool-arguments.ts';
import type { ChatClient, ChatExchange, ChatRequest, ChatResponse, LiveToolCall } from './types.ts';
import { providerUsage } from './usage.ts';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/**
 * OpenAI-compatible chat completions (`POST {base}/chat/completions`) with function tools:
 * OpenAI itself, and through `--base-url` vLLM, llama.cpp server, Ollama (`/v1`) and gateways.
 * The output limit is `max_completion_tokens` on OpenAI's own API (its reasoning models reject
 * `max_tokens`) and `max_tokens` elsewhere (what the compatible servers accept).
 */
export function openAiClient(apiKey: string, baseUrl = OPENAI_DEFAULT_BASE_URL, retry: RetryPolicy = DEFAULT_RETRY): ChatClient {
  const endpoint = endpointUrl(baseUrl, '/chat/completions');
  const url = redactUrl(endpoint);
  const secrets = [apiKey, ...urlSecrets(baseUrl)];
  const wireBody = (request: ChatRequest) =>
    openAiBody(request, baseUrl === OPENAI_DEFAULT_BASE_URL ? 'max_completion_tokens' : 'max_tokens');
  return {
    provider: 'openai',
    url,
    body: wireBody,
    async complete(request: ChatRequest): Promise<ChatExchange> {
      const requestBody = wireBody(request);
      const { body, attempts, latencyMs } = await postJson(endpoint, { authorization: `Bearer ${apiKey}` }, requestBody, {
        policy: retry,
        secrets,
      });
      return { response: parseOpenAi(body, url), url, requestBody, responseBody: body, attempts, latencyMs };
    },
  };
}

export function openAiBody(r: ChatRequest, limitField: 'max_tokens' | 'max_completion_tokens' = 'max_tokens'): Record<string, unknown> {
  const messages: Record<string, unknown>[] = [{ role: 'system', content: r.system }];
  for (const m of r.messages) {
    if (m.role === 'user') messages.push({ role: 'user', content: m.text });
    else if (m.role === 'assistant')
      messages.push({
        role: 'assistant',
        content: m.text || null,
        ...(m.toolCalls.length
          ? { tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.argumentsText } })) }
          : {}),
      });
    else if (m.role === 'tool')
      for (const res of m.results) messages.push({ role: 'tool', tool_call_id: res.callId, content: res.content });
    // No tool search in chat completions: a run never sends a search pipeline here (src/commands/live.ts).
  }
  return {
    model: r.model,
    messages,
    ...(r.tools.length
      ? {
          tools: r.tools.map((t) => ({
            type: 'function',
            function: { name: t.name, description: t.description, parameters: t.parameters },
          })),
        }
      : {}),
    [limitField]: r.maxTokens,
  };
}

/** The parts of a chat-completions response we read; anything missing is a one-line error. */
function parseOpenAi(body: unknown, url: string): ChatResponse {
  const b = body as {
    choices?: { message?: { content?: unknown; tool_calls?: unknown }; finish_reason?: string }[];
    usage?: { prompt_tokens?: unknown; completion_tokens?: unknown; prompt_tokens_details?: { cached_tokens?: unknown } };
  };
  const choice = b?.choices?.[0];
  if (!choice?.message) throw new Error(`${url}: response at $.choices[0].message: expected a message object`);
  const rawCalls = Array.isArray(choice.message.tool_calls) ? choice.message.tool_calls : [];
  const toolCalls: LiveToolCall[] = rawCalls.map((c: { id?: unknown; function?: { name?: unknown; arguments?: unknown } }, i: number) => {
    const args = c?.function?.arguments;
    // Arguments are JSON text on this wire; keep them as written (malformed ones are graded, not repaired).
    const bounded = typeof args === 'string' ? boundArgumentsText(args) : boundArgumentsValue(args ?? null);
    return {
      id: typeof c?.id === 'string' && c.id ? c.id : `call_${i}`,
      name: typeof c?.function?.name === 'string' ? c.function.name : '',
      argumentsText: bounded.argumentsText,
      ...(bounded.overLimit ? { argumentsOverLimit: bounded.overLimit } : {}),
    };
  });
  return {
    text: typeof choice.message.content === 'string' ? choice.message.content : '',
    toolCalls,
    usage: providerUsage(b.usage?.prompt_tokens, b.usage?.completion_tokens, b.usage?.prompt_tokens_details?.cached_tokens),
    stopReason: choice.finish_reason ?? '',
  };
}
