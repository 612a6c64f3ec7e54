import type { McpTool } from '../catalog/types.ts';
import {
  anthropicClientSearchResult,
  anthropicSearchTool,
  OPENAI_TOOL_SEARCH,
  openAiFunction,
  openAiNamespace,
} from '../pipelines/host-search/shapes.ts';
import type { LiveSearch, LiveToolCall, LiveToolSearch, LiveToolSpec } from './types.ts';

/**
 * The tool search parts of a live request, as each provider documents them
 * (docs/reference/host-search-sources.md; the shapes themselves are in
 * src/pipelines/host-search/shapes.ts, pinned to the documented examples by
 * test/pipelines/host-search-shapes.test.ts). The clients (./anthropic-client.ts,
 * ./openai-responses-client.ts) call these where a request carries a tool search.
 */

const asMcp = (t: LiveToolSpec): McpTool => ({ name: t.name, description: t.description, inputSchema: t.parameters });

/** Anthropic's `tools`: the search tool (the server's, or the client's own), then every deferred tool with `defer_loading: true`. */
export function anthropicSearchTools(ts: LiveToolSearch): Record<string, unknown>[] {
  const search =
    ts.execution === 'server'
      ? anthropicSearchTool(ts.variant ?? 'bm25')
      : { name: ts.clientTool.name, description: ts.clientTool.description, input_schema: ts.clientTool.parameters };
  return [
    search,
    ...ts.deferred.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters, defer_loading: true })),
  ];
}

/** The server-side search blocks of an Anthropic response, as one search to send back, if there are any. */
export function anthropicServerSearches(content: readonly { type?: string; name?: unknown }[]): LiveSearch[] {
  // Only the tool search's own blocks: another server tool (code execution) is not a search.
  const blocks = content.filter(
    (c) =>
      (c.type === 'server_tool_use' && typeof c.name === 'string' && c.name.startsWith('tool_search_tool')) ||
      c.type === 'tool_search_tool_result',
  );
  return blocks.length ? [{ execution: 'server', blocks }] : [];
}

/** The `tool_result` answering a client-executed search: `tool_reference` blocks, which the API expands into the definitions. */
export function anthropicSearchAnswer(callId: string, loaded: readonly string[]): Record<string, unknown> {
  return anthropicClientSearchResult(callId, loaded);
}

/** The wire name of a Responses function inside its namespace (the provider name without `<namespace>__`). */
function functionName(t: Pick<LiveToolSpec, 'name' | 'namespace'>): string {
  return t.namespace && t.name.startsWith(`${t.namespace}__`) ? t.name.slice(t.namespace.length + 2) : t.name;
}

/** The provider name of a Responses function call (`<namespace>__<function>`). */
export function qualifiedName(name: string, namespace: string | undefined): string {
  return namespace ? `${namespace}__${name}` : name;
}

/**
 * Namespaces of deferred functions holding these tools, in the request's namespace order. A
 * client's `tool_search_output` returns the loaded functions in the same form (as OpenAI's own
 * Codex client does: its tests pin an output whose functions keep `defer_loading: true`).
 */
function namespacesOf(ts: LiveToolSearch, tools: readonly LiveToolSpec[]): Record<string, unknown>[] {
  return ts.namespaces.flatMap((ns) => {
    const own = tools.filter((t) => t.namespace === ns.name);
    return own.length
      ? [
          openAiNamespace(
            ns.name,
            ns.description,
            own.map((t) => ({ ...asMcp(t), name: functionName(t) })),
          ),
        ]
      : [];
  });
}

/** The Responses API's `tools`: `tool_search` (hosted, or client-executed with its input schema), then one namespace per server of deferred functions. */
export function responsesSearchTools(ts: LiveToolSearch): Record<string, unknown>[] {
  const search =
    ts.execution === 'server'
      ? { ...OPENAI_TOOL_SEARCH }
      : { ...OPENAI_TOOL_SEARCH, execution: 'client', description: ts.clientTool.description, parameters: ts.clientTool.parameters };
  return [search, ...namespacesOf(ts, ts.deferred)];
}

/** A Responses function tool (flat), and the function call item that calls one. */
export function responsesFunction(t: LiveToolSpec): Record<string, unknown> {
  return openAiFunction(asMcp(t), false);
}

export function responsesFunctionCall(c: LiveToolCall): Record<string, unknown> {
  return {
    type: 'function_call',
    call_id: c.id,
    name: functionName({ name: c.name, namespace: c.namespace }),
    ...(c.namespace ? { namespace: c.namespace } : {}),
    arguments: c.argumentsText,
  };
}

/** A client-executed search call as the model emitted it (`tool_search_call`, execution client). */
export function responsesSearchCall(c: LiveToolCall): Record<string, unknown> {
  let args: unknown = {};
  try {
    args = JSON.parse(c.argumentsText);
  } catch {
    args = { unparsed_arguments: c.argumentsText };
  }
  return { type: 'tool_search_call', call_id: c.id, execution: 'client', status: 'completed', arguments: args };
}

/** The `tool_search_output` answering a client-executed search: the loaded functions, in their namespaces. */
export function responsesSearchAnswer(callId: string, loaded: readonly string[], ts: LiveToolSearch | undefined): Record<string, unknown> {
  const tools = ts
    ? namespacesOf(
        ts,
        ts.deferred.filter((t) => loaded.includes(t.name)),
      )
    : [];
  return { type: 'tool_search_output', call_id: callId, execution: 'client', status: 'completed', tools };
}

/** The input items of earlier searches carried into a Responses request. */
export function responsesSearchItems(searches: readonly LiveSearch[], ts: LiveToolSearch | undefined): unknown[] {
  return searches.flatMap((s) =>
    s.execution === 'server' ? s.blocks : [responsesSearchCall(s.call), responsesSearchAnswer(s.call.id, s.loaded, ts)],
  );
}

/** The provider names of the tools a search loaded (a server search's references or loaded functions; a client search's answer). */
export function loadedBy(search: LiveSearch): string[] {
  if (search.execution === 'client') return search.loaded;
  const names: string[] = [];
  for (const block of search.blocks as Record<string, unknown>[]) {
    const content = block.content as { tool_references?: { tool_name?: unknown }[] } | undefined;
    if (block.type === 'tool_search_tool_result')
      for (const r of content?.tool_references ?? []) if (typeof r.tool_name === 'string') names.push(r.tool_name);
    if (block.type === 'tool_search_output' && Array.isArray(block.tools))
      for (const t of block.tools as { type?: string; name?: unknown; namespace?: unknown; tools?: { name?: unknown }[] }[]) {
        if (typeof t.name !== 'string') continue;
        if (t.type === 'namespace') {
          for (const f of t.tools ?? []) if (typeof f.name === 'string') names.push(qualifiedName(f.name, t.name));
        } else names.push(qualifiedName(t.name, typeof t.namespace === 'string' ? t.namespace : undefined));
      }
  }
  return names;
}
