import { redactUrl, urlSecrets } from '../mcp/redact.ts';
import { DEFAULT_RETRY, endpointUrl, postJson, type RetryPolicy } from './http.ts';
import { OPENAI_DEFAULT_BASE_URL } from './openai-client.ts';
import { boundArgumentsText, boundArgumentsValue } from './tool-arguments.ts';
import {
  qualifiedName,
  responsesFunction,
  responsesFunctionCall,
  responsesSearchAnswer,
  responsesSearchCall,
  responsesSearchItems,
  responsesSearchTools,
} from './tool-search-requests.ts';
import type { ChatClient, ChatExchange, ChatRequest, ChatResponse, LiveSearch, LiveToolCall } from './types.ts';
import { providerUsage } from './usage.ts';

/**
 * OpenAI's Responses API (`POST {base}/responses`), stateless: every request carries the whole
 * conversation as input items (nothing is looked up by `previous_response_id`), so a run can be
 * replayed and resumed like one on chat completions. Live mode sends a request here when it
 * carries a tool search (`tool_search` exists only in this API); every other request of an
 * `openai` run goes to chat completions (openAiProviderClient).
 */
export function openAiResponsesClient(apiKey: string, baseUrl = OPENAI_DEFAULT_BASE_URL, retry: RetryPolicy = DEFAULT_RETRY): ChatClient {
  const endpoint = endpointUrl(baseUrl, '/responses');
  const url = redactUrl(endpoint);
  const secrets = [apiKey, ...urlSecrets(baseUrl)];
  return {
    provider: 'openai',
    url,
    body: responsesBody,
    async complete(request: ChatRequest): Promise<ChatExchange> {
      const requestBody = responsesBody(request);
      const { body, attempts, latencyMs } = await postJson(endpoint, { authorization: `Bearer ${apiKey}` }, requestBody, {
        policy: retry,
        secrets,
      });
      return { response: parseResponses(body, url), url, requestBody, responseBody: body, attempts, latencyMs };
    },
  };
}

/**
 * The `openai` provider's client: chat completions, and the Responses API for a request that
 * carries a tool search. Its `url` is the chat-completions endpoint; each saved exchange names
 * the endpoint it went to.
 */
export function openAiProviderClient(chat: ChatClient, responses: ChatClient): ChatClient {
  const pick = (r: ChatRequest) => (r.toolSearch ? responses : chat);
  return {
    provider: 'openai',
    url: chat.url,
    body: (r) => pick(r).body(r),
    complete: (r, call) => pick(r).complete(r, call),
  };
}

export function responsesBody(r: ChatRequest): Record<string, unknown> {
  const input: unknown[] = [];
  for (const m of r.messages) {
    if (m.role === 'user') input.push({ role: 'user', content: m.text });
    else if (m.role === 'assistant') {
      input.push(...responsesSearchItems(m.searches ?? [], r.toolSearch));
      if (m.text) input.push({ role: 'assistant', content: m.text });
      input.push(...m.toolCalls.map((c) => (c.search ? responsesSearchCall(c) : responsesFunctionCall(c))));
    } else if (m.role === 'tool')
      for (const res of m.results)
        input.push(
          res.loaded
            ? responsesSearchAnswer(res.callId, res.loaded, r.toolSearch)
            : { type: 'function_call_output', call_id: res.callId, output: res.content },
        );
    else input.push(...responsesSearchItems(m.searches, r.toolSearch));
  }
  const tools = [...(r.toolSearch ? responsesSearchTools(r.toolSearch) : []), ...r.tools.map(responsesFunction)];
  return {
    model: r.model,
    instructions: r.system,
    input,
    ...(tools.length ? { tools } : {}),
    max_output_tokens: r.maxTokens,
  };
}

interface OutputItem {
  type?: string;
  call_id?: unknown;
  name?: unknown;
  namespace?: unknown;
  arguments?: unknown;
  execution?: unknown;
  content?: { type?: string; text?: unknown }[];
}

/** The parts of a Responses API response we read; anything missing is a one-line error. */
export function parseResponses(body: unknown, url: string): ChatResponse {
  const b = body as {
    output?: OutputItem[];
    status?: string;
    usage?: { input_tokens?: unknown; output_tokens?: unknown; input_tokens_details?: { cached_tokens?: unknown } };
  };
  if (!Array.isArray(b?.output)) throw new Error(`${url}: response at $.output: expected an array of output items`);
  const text = b.output
    .filter((o) => o.type === 'message' && Array.isArray(o.content))
    .flatMap((o) => o.content!.filter((c) => c.type === 'output_text').map((c) => (typeof c.text === 'string' ? c.text : '')))
    .join('');
  const toolCalls: LiveToolCall[] = [];
  const server: unknown[] = [];
  for (const [i, o] of b.output.entries()) {
    if ((o.type === 'tool_search_call' || o.type === 'tool_search_output') && o.execution !== 'client') server.push(o);
    else if (o.type === 'function_call' || (o.type === 'tool_search_call' && o.execution === 'client')) toolCalls.push(toolCall(o, i));
  }
  const searches: LiveSearch[] = server.length ? [{ execution: 'server', blocks: server }] : [];
  return {
    text,
    toolCalls,
    usage: providerUsage(b.usage?.input_tokens, b.usage?.output_tokens, b.usage?.input_tokens_details?.cached_tokens),
    stopReason: b.status ?? '',
    ...(searches.length ? { searches } : {}),
  };
}

/** A function call (arguments as JSON text, kept as written) or a client-executed search call (arguments an object). */
function toolCall(o: OutputItem, i: number): LiveToolCall {
  const search = o.type === 'tool_search_call';
  const bounded = typeof o.arguments === 'string' ? boundArgumentsText(o.arguments) : boundArgumentsValue(o.arguments ?? null);
  const namespace = typeof o.namespace === 'string' && o.namespace ? o.namespace : undefined;
  const name = search ? 'tool_search' : typeof o.name === 'string' ? qualifiedName(o.name, namespace) : '';
  return {
    id: typeof o.call_id === 'string' && o.call_id ? o.call_id : `call_${i}`,
    name,
    argumentsText: bounded.argumentsText,
    ...(bounded.overLimit ? { argumentsOverLimit: bounded.overLimit } : {}),
    ...(namespace ? { namespace } : {}),
    ...(search ? { search: true } : {}),
  };
}
