import type { McpTool } from '../../catalog/types.ts';
import type { SearchInput } from '../../sim/search-model.ts';

/**
 * The request and response shapes of the hosts' tool search, as their documentation writes them
 * (sources: docs/reference/host-search-sources.md; test/pipelines/host-search-shapes.test.ts pins
 * each to the documented example). The pipelines render the conversation items from these, and
 * live mode sends them (src/live/tool-search-requests.ts; test/live/tool-search-requests.test.ts
 * pins the requests it builds).
 */

export type AnthropicSearchVariant = 'bm25' | 'regex';

/** The beta header Anthropic's tool search page names. */
export const ANTHROPIC_TOOL_SEARCH_BETA = 'advanced-tool-use-2025-11-20';

/** The `tools` entry of Anthropic's server-side tool search tool. */
export function anthropicSearchTool(variant: AnthropicSearchVariant): { type: string; name: string } {
  return variant === 'bm25'
    ? { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' }
    : { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' };
}

/** A deferred tool of a Messages API request: its definition with `defer_loading: true`. */
export function anthropicDeferredTool(d: McpTool): Record<string, unknown> {
  return {
    name: d.name,
    ...(d.description === undefined ? {} : { description: d.description }),
    input_schema: d.inputSchema,
    defer_loading: true,
  };
}

export type { SearchInput } from '../../sim/search-model.ts';

/** The assistant's `server_tool_use` block of a server-side search. */
export function anthropicServerToolUse(id: string, variant: AnthropicSearchVariant, input: SearchInput) {
  return { type: 'server_tool_use', id, name: anthropicSearchTool(variant).name, input };
}

/** A `tool_reference` block: a deferred tool by name, which the API expands into its definition. */
function toolReference(name: string): { type: 'tool_reference'; tool_name: string } {
  return { type: 'tool_reference', tool_name: name };
}

/** The `tool_search_tool_result` block the API returns after a server-side search. */
export function anthropicSearchResult(toolUseId: string, names: readonly string[]) {
  return {
    type: 'tool_search_tool_result',
    tool_use_id: toolUseId,
    content: { type: 'tool_search_tool_search_result', tool_references: names.map(toolReference) },
  };
}

/** The client's own search tool (a custom tool), for the client-side search both hosts allow. */
export const CLIENT_SEARCH_TOOL: McpTool = {
  name: 'tool_search',
  description:
    'Search the deferred tools by what they do. Returns references to the best matching tools, whose definitions are then loaded and can be called.',
  inputSchema: {
    type: 'object',
    properties: { query: { type: 'string', description: 'What the tool should do, in words.' } },
    required: ['query'],
  },
};

/** The `tool_result` a client returns for its own search: `tool_reference` blocks as its content. */
export function anthropicClientSearchResult(toolUseId: string, names: readonly string[]) {
  return { type: 'tool_result', tool_use_id: toolUseId, content: names.map(toolReference) };
}

/** OpenAI's hosted tool search tool (Responses API). */
export const OPENAI_TOOL_SEARCH = { type: 'tool_search' } as const;

/** A namespace of deferred functions: its name and description are what the model sees up front. */
export function openAiNamespace(name: string, description: string, functions: readonly McpTool[]) {
  return { type: 'namespace', name, description, tools: functions.map((d) => openAiFunction(d, true)) };
}

/** A Responses API function tool (flat: name, description, parameters at the top level). */
export function openAiFunction(d: McpTool, deferLoading: boolean): Record<string, unknown> {
  return {
    type: 'function',
    name: d.name,
    ...(d.description === undefined ? {} : { description: d.description }),
    parameters: d.inputSchema,
    ...(deferLoading ? { defer_loading: true } : {}),
  };
}

/**
 * The `tool_search_call` output item of a search, with the arguments the model wrote: the
 * built-in (hosted) search takes `{"paths": [...]}` (namespace names), a client-executed one
 * what the application's schema asks for. In hosted mode (`execution: "server"`) the guide sets
 * `call_id` to null; in client mode it is the id the `tool_search_output` echoes.
 */
export function openAiSearchCall(id: string, args: Record<string, unknown>, execution: 'server' | 'client' = 'server') {
  return {
    type: 'tool_search_call',
    id,
    call_id: execution === 'server' ? null : id,
    execution,
    status: 'completed',
    arguments: args,
  };
}

/** The `tool_search_output` item: the loaded functions, in their namespaces. */
export function openAiSearchOutput(
  callId: string,
  loaded: readonly { namespace: string; description: string; tool: McpTool }[],
  execution: 'server' | 'client' = 'server',
) {
  const byNamespace = new Map<string, { description: string; tools: McpTool[] }>();
  for (const l of loaded) {
    const ns = byNamespace.get(l.namespace) ?? { description: l.description, tools: [] };
    ns.tools.push(l.tool);
    byNamespace.set(l.namespace, ns);
  }
  return {
    type: 'tool_search_output',
    call_id: execution === 'server' ? null : callId,
    execution,
    status: 'completed',
    tools: [...byNamespace].map(([name, ns]) => openAiNamespace(name, ns.description, ns.tools)),
  };
}
