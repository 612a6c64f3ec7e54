import { describe, expect, it } from 'vitest';
import { anthropicBody, parseAnthropic } from '../../src/live/anthropic-client.ts';
import { parseResponses, responsesBody } from '../../src/live/openai-responses-client.ts';
import { loadedBy } from '../../src/live/tool-search-requests.ts';
import type { ChatRequest, LiveToolSearch, LiveToolSpec } from '../../src/live/types.ts';

/**
 * The requests live mode builds for the host tool searches, against the providers' documented
 * examples (docs/reference/host-search-sources.md): Anthropic's tool search tool page (a
 * `get_weather` tool deferred beside the regex search tool; the response with `server_tool_use`,
 * `tool_search_tool_result` and `tool_reference`; the custom search's `tool_result`), and
 * OpenAI's tool search guide (the `crm` namespace of deferred functions; hosted items with
 * `execution: "server"` and `call_id: null`; client-executed `tool_search_call` /
 * `tool_search_output` echoing its `call_id`).
 */

const weatherSchema = {
  type: 'object',
  properties: {
    location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
  },
  required: ['location'],
};
const weather: LiveToolSpec = { name: 'get_weather', description: 'Get the weather at a specific location', parameters: weatherSchema };
const customerSchema = {
  type: 'object',
  properties: { customer_id: { type: 'string' } },
  required: ['customer_id'],
  additionalProperties: false,
};
const customer: LiveToolSpec = {
  name: 'crm__get_customer_profile',
  namespace: 'crm',
  description: 'Fetch a customer profile by customer ID.',
  parameters: customerSchema,
};
const clientTool: LiveToolSpec = {
  name: 'tool_search',
  description: 'Search the deferred tools.',
  parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
};

const search = (execution: 'server' | 'client', deferred: LiveToolSpec[], variant?: 'bm25' | 'regex'): LiveToolSearch => ({
  execution,
  ...(variant ? { variant } : {}),
  deferred,
  namespaces: [{ name: 'crm', description: 'CRM tools for customer lookup and order management.' }],
  clientTool,
});

const request = (
  toolSearch: LiveToolSearch,
  messages: ChatRequest['messages'] = [{ role: 'user', text: 'What is the weather in San Francisco?' }],
) => ({
  model: 'm',
  system: 'sys',
  maxTokens: 64,
  tools: [],
  messages,
  toolSearch,
});

/** Anthropic's documented response to a search (regex variant): the search, its result, then the call. */
const anthropicResponse = {
  content: [
    { type: 'text', text: "I'll search for tools to help with the weather information." },
    { type: 'server_tool_use', id: 'srvtoolu_01ABC123', name: 'tool_search_tool_regex', input: { pattern: 'weather' } },
    {
      type: 'tool_search_tool_result',
      tool_use_id: 'srvtoolu_01ABC123',
      content: { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: 'get_weather' }] },
    },
    { type: 'tool_use', id: 'toolu_01XYZ789', name: 'get_weather', input: { location: 'San Francisco', unit: 'fahrenheit' } },
  ],
  stop_reason: 'tool_use',
  usage: { input_tokens: 667, output_tokens: 62 },
};

describe('Anthropic requests with a tool search', () => {
  it('declares the search tool and every tool deferred, as the documented request', () => {
    for (const variant of ['regex', 'bm25'] as const)
      expect(anthropicBody(request(search('server', [weather], variant))).tools).toEqual([
        { type: `tool_search_tool_${variant}_20251119`, name: `tool_search_tool_${variant}` },
        { name: 'get_weather', description: 'Get the weather at a specific location', input_schema: weatherSchema, defer_loading: true },
      ]);
    expect(anthropicBody(request(search('client', [weather]))).tools).toEqual([
      { name: 'tool_search', description: 'Search the deferred tools.', input_schema: clientTool.parameters },
      { name: 'get_weather', description: 'Get the weather at a specific location', input_schema: weatherSchema, defer_loading: true },
    ]);
  });

  it('reads the documented search response and sends its blocks back with the call', () => {
    const parsed = parseAnthropic(anthropicResponse, 'u');
    expect(parsed.toolCalls).toEqual([
      { id: 'toolu_01XYZ789', name: 'get_weather', argumentsText: '{"location":"San Francisco","unit":"fahrenheit"}' },
    ]);
    expect(parsed.searches).toEqual([{ execution: 'server', blocks: anthropicResponse.content.slice(1, 3) }]);
    expect(loadedBy(parsed.searches![0]!)).toEqual(['get_weather']);
    const next = anthropicBody(
      request(search('server', [weather], 'regex'), [
        { role: 'user', text: 'What is the weather in San Francisco?' },
        { role: 'assistant', text: parsed.text, toolCalls: parsed.toolCalls, searches: parsed.searches! },
        { role: 'tool', results: [{ callId: 'toolu_01XYZ789', name: 'get_weather', content: '{"temp":59}' }] },
      ]),
    );
    expect((next.messages as { content: unknown[] }[])[1]!.content).toEqual(anthropicResponse.content);
  });

  it("answers a client search with tool_reference blocks in a tool_result, and carries searches into a later turn's request", () => {
    const call = { id: 'toolu_my_search', name: 'tool_search', argumentsText: '{"query":"weather"}' };
    const answered = anthropicBody(
      request(search('client', [weather]), [
        { role: 'user', text: 'hi' },
        { role: 'assistant', text: '', toolCalls: [call] },
        { role: 'tool', results: [{ callId: 'toolu_my_search', name: 'tool_search', content: '{}', loaded: ['get_weather'] }] },
      ]),
    );
    expect((answered.messages as { content: unknown[] }[])[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_my_search', content: [{ type: 'tool_reference', tool_name: 'get_weather' }] },
    ]);
    const carried = anthropicBody(
      request(search('client', [weather]), [
        { role: 'user', text: 'history' },
        {
          role: 'searches',
          searches: [
            { execution: 'server', blocks: anthropicResponse.content.slice(1, 3) },
            { execution: 'client', call, loaded: ['get_weather'] },
          ],
        },
        { role: 'user', text: 'User: and tomorrow?' },
      ]),
    );
    expect(carried.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'history' }] },
      {
        role: 'assistant',
        content: [
          ...anthropicResponse.content.slice(1, 3),
          { type: 'tool_use', id: 'toolu_my_search', name: 'tool_search', input: { query: 'weather' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_my_search', content: [{ type: 'tool_reference', tool_name: 'get_weather' }] },
          { type: 'text', text: 'User: and tomorrow?' },
        ],
      },
    ]);
  });
});

describe('Responses API requests with tool_search', () => {
  const crmNamespace = (deferLoading: boolean) => ({
    type: 'namespace',
    name: 'crm',
    description: 'CRM tools for customer lookup and order management.',
    tools: [
      {
        type: 'function',
        name: 'get_customer_profile',
        description: 'Fetch a customer profile by customer ID.',
        parameters: customerSchema,
        ...(deferLoading ? { defer_loading: true } : {}),
      },
    ],
  });

  it('declares tool_search (hosted or client-executed) and the namespace of deferred functions, as the guide', () => {
    expect(responsesBody(request(search('server', [customer])))).toEqual({
      model: 'm',
      instructions: 'sys',
      input: [{ role: 'user', content: 'What is the weather in San Francisco?' }],
      tools: [{ type: 'tool_search' }, crmNamespace(true)],
      max_output_tokens: 64,
    });
    expect(responsesBody(request(search('client', [customer]))).tools).toEqual([
      { type: 'tool_search', execution: 'client', description: 'Search the deferred tools.', parameters: clientTool.parameters },
      crmNamespace(true),
    ]);
  });

  it('reads a hosted search (execution server, call_id null) and its namespaced call, and sends the items back', () => {
    const output = [
      { type: 'tool_search_call', id: 'tsc_1', execution: 'server', call_id: null, status: 'completed', arguments: { paths: ['crm'] } },
      { type: 'tool_search_output', id: 'tso_1', execution: 'server', call_id: null, status: 'completed', tools: [crmNamespace(true)] },
      {
        type: 'function_call',
        id: 'fc_1',
        call_id: 'call_1',
        name: 'get_customer_profile',
        namespace: 'crm',
        arguments: '{"customer_id":"c_1"}',
      },
    ];
    const parsed = parseResponses(
      { output, status: 'completed', usage: { input_tokens: 100, output_tokens: 9, input_tokens_details: { cached_tokens: 80 } } },
      'u',
    );
    expect(parsed.toolCalls).toEqual([
      { id: 'call_1', name: 'crm__get_customer_profile', namespace: 'crm', argumentsText: '{"customer_id":"c_1"}' },
    ]);
    expect(parsed.usage).toEqual({ inputTokens: 100, outputTokens: 9, cachedInputTokens: 80 });
    expect(loadedBy(parsed.searches![0]!)).toEqual(['crm__get_customer_profile']);
    const next = responsesBody(
      request(search('server', [customer]), [
        { role: 'user', text: 'Look up customer c_1' },
        { role: 'assistant', text: '', toolCalls: parsed.toolCalls, searches: parsed.searches! },
        { role: 'tool', results: [{ callId: 'call_1', name: 'crm__get_customer_profile', content: '{"name":"Ada"}' }] },
      ]),
    );
    expect(next.input).toEqual([
      { role: 'user', content: 'Look up customer c_1' },
      output[0],
      output[1],
      { type: 'function_call', call_id: 'call_1', name: 'get_customer_profile', namespace: 'crm', arguments: '{"customer_id":"c_1"}' },
      { type: 'function_call_output', call_id: 'call_1', output: '{"name":"Ada"}' },
    ]);
  });

  it('answers a client-executed tool_search_call with a tool_search_output echoing its call_id', () => {
    const parsed = parseResponses(
      {
        output: [
          {
            type: 'tool_search_call',
            id: 'tsc_2',
            execution: 'client',
            call_id: 'call_ts',
            status: 'completed',
            arguments: { query: 'customer' },
          },
        ],
      },
      'u',
    );
    expect(parsed.toolCalls).toEqual([{ id: 'call_ts', name: 'tool_search', argumentsText: '{"query":"customer"}', search: true }]);
    const next = responsesBody(
      request(search('client', [customer]), [
        { role: 'user', text: 'Look up customer c_1' },
        { role: 'assistant', text: '', toolCalls: parsed.toolCalls },
        { role: 'tool', results: [{ callId: 'call_ts', name: 'tool_search', content: '{}', loaded: ['crm__get_customer_profile'] }] },
      ]),
    );
    expect((next.input as unknown[]).slice(1)).toEqual([
      { type: 'tool_search_call', call_id: 'call_ts', execution: 'client', status: 'completed', arguments: { query: 'customer' } },
      { type: 'tool_search_output', call_id: 'call_ts', execution: 'client', status: 'completed', tools: [crmNamespace(true)] },
    ]);
    expect(() => parseResponses({}, 'https://x/v1/responses')).toThrow(
      'https://x/v1/responses: response at $.output: expected an array of output items',
    );
  });
});
