import { describe, expect, it } from 'vitest';
import {
  ANTHROPIC_TOOL_SEARCH_BETA,
  anthropicClientSearchResult,
  anthropicDeferredTool,
  anthropicSearchResult,
  anthropicSearchTool,
  anthropicServerToolUse,
  OPENAI_TOOL_SEARCH,
  openAiFunction,
  openAiNamespace,
  openAiSearchCall,
  openAiSearchOutput,
} from '../../src/pipelines/host-search/shapes.ts';

/**
 * Each shape against the providers' documented examples (docs/reference/host-search-sources.md):
 * the JSON literals below are written as the documentation writes them.
 */
const weather = {
  name: 'get_weather',
  description: 'Get the weather at a specific location',
  inputSchema: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
};

describe('Anthropic tool search request and response shapes', () => {
  it('the two search tools and a deferred tool', () => {
    expect(anthropicSearchTool('regex')).toEqual({ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' });
    expect(anthropicSearchTool('bm25')).toEqual({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
    expect(anthropicDeferredTool(weather)).toEqual({
      name: 'get_weather',
      description: 'Get the weather at a specific location',
      input_schema: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
      defer_loading: true,
    });
    expect(ANTHROPIC_TOOL_SEARCH_BETA).toBe('advanced-tool-use-2025-11-20');
  });

  it('server_tool_use and tool_search_tool_result with tool_reference blocks', () => {
    expect([
      anthropicServerToolUse('srvtoolu_01ABC123', 'regex', { pattern: 'weather' }),
      anthropicSearchResult('srvtoolu_01ABC123', ['get_weather']),
    ]).toEqual([
      { type: 'server_tool_use', id: 'srvtoolu_01ABC123', name: 'tool_search_tool_regex', input: { pattern: 'weather' } },
      {
        type: 'tool_search_tool_result',
        tool_use_id: 'srvtoolu_01ABC123',
        content: { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: 'get_weather' }] },
      },
    ]);
    expect(anthropicServerToolUse('s', 'bm25', { query: 'weather' }).name).toBe('tool_search_tool_bm25');
  });

  it('a client-side search returns tool_reference blocks in a tool_result', () => {
    expect(anthropicClientSearchResult('toolu_01', ['get_weather'])).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_01',
      content: [{ type: 'tool_reference', tool_name: 'get_weather' }],
    });
  });
});

describe('OpenAI tool_search shapes (Responses API)', () => {
  it('the tool, a namespace of deferred functions, and a flat function', () => {
    expect(OPENAI_TOOL_SEARCH).toEqual({ type: 'tool_search' });
    expect(openAiNamespace('crm', 'CRM tools for customer lookup and order management.', [weather])).toEqual({
      type: 'namespace',
      name: 'crm',
      description: 'CRM tools for customer lookup and order management.',
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'Get the weather at a specific location',
          parameters: weather.inputSchema,
          defer_loading: true,
        },
      ],
    });
    expect(openAiFunction(weather, false)).not.toHaveProperty('defer_loading');
  });

  it('tool_search_call and tool_search_output items', () => {
    // Hosted: "execution is set to server and call_id is set to null" (the guide); the built-in
    // search's input is `{ paths: string[] }` (the Agents SDK's toolSearchTool reference).
    expect(openAiSearchCall('tsc_1', { paths: ['crm'] })).toEqual({
      type: 'tool_search_call',
      id: 'tsc_1',
      call_id: null,
      execution: 'server',
      status: 'completed',
      arguments: { paths: ['crm'] },
    });
    const out = openAiSearchOutput('tsc_1', [{ namespace: 'crm', description: 'CRM', tool: weather }], 'client');
    expect(out).toMatchObject({ type: 'tool_search_output', call_id: 'tsc_1', execution: 'client', status: 'completed' });
    expect(out.tools).toHaveLength(1);
    expect(openAiSearchCall('call_1', { query: 'weather' }, 'client')).toMatchObject({ call_id: 'call_1', execution: 'client' });
    expect(openAiSearchOutput('tsc_1', [], 'server')).toMatchObject({ call_id: null, execution: 'server' });
    expect(out.tools[0]!.tools[0]!.name).toBe('get_weather');
  });
});
