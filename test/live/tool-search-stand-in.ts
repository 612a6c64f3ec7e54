import type { Script, ScriptStep, StandInRequest } from './scripted-llm-server.ts';
import { placeholderArguments, words } from './scripted-llm-server.ts';

/**
 * TEST STAND-IN — not a model and not a provider's search. A crude agent for the host tool search
 * pipelines that answers in each provider's documented response shapes
 * (docs/reference/host-search-sources.md), for the scripted server (./scripted-llm-server.ts):
 *
 * - Anthropic Messages (`/messages`), server-side search (`tool_search_tool_bm25_20251119`,
 *   `tool_search_tool_regex_20251119`): one response with a `server_tool_use` block, its
 *   `tool_search_tool_result` with `tool_reference` blocks (3 at most) and a `tool_use` of the
 *   best referenced tool, as the API answers after searching; a tool already referenced earlier
 *   in the request is called without searching again.
 * - Anthropic, client search (a `tool_search` tool): a `tool_use` of it; after its `tool_result`
 *   of `tool_reference` blocks, a `tool_use` of the best referenced tool.
 * - Responses (`/responses`), hosted `tool_search`: `tool_search_call` and `tool_search_output`
 *   (execution `server`, `call_id` null) and a namespaced `function_call`; client-executed: a
 *   `tool_search_call` (execution `client`), then after the client's `tool_search_output` a
 *   `function_call` of the best loaded function.
 *
 * After a tool result it answers in text. "Best" is the most words shared with the last `User:`
 * line (name, description, argument names). Its usage counts what a provider puts in the prompt,
 * as characters / 4: the request without its deferred definitions (a namespace keeps its name
 * and description), plus the definitions its searches loaded.
 */
export function toolSearchAgent(): Script {
  return (r) => (r.path.endsWith('/responses') ? responsesAgent(r) : anthropicAgent(r));
}

type Json = Record<string, unknown>;
interface Deferred {
  name: string;
  namespace?: string;
  description: string;
  schema: Json | undefined;
}

const MAX_REFERENCES = 3;

/** Characters / 4 of the request as the provider's prompt holds it: deferred definitions out, loaded ones in. */
function usageTokens(r: StandInRequest, loaded: readonly unknown[]): number {
  const tools = ((r.body as unknown as { tools?: Json[] }).tools ?? []).flatMap((t) =>
    t.defer_loading === true ? [] : t.type === 'namespace' ? [{ name: t.name, description: t.description }] : [t],
  );
  return Math.ceil(JSON.stringify({ ...r.body, tools, loaded }).length / 4);
}

function askOf(texts: readonly string[]): Set<string> {
  const line = texts
    .flatMap((t) => t.split('\n'))
    .filter((l) => l.startsWith('User: '))
    .at(-1);
  return words(line ?? '');
}

function scoreOf(ask: Set<string>, t: Deferred): number {
  const props = Object.keys((t.schema?.properties as Json | undefined) ?? {}).join(' ');
  return [...words(`${t.name} ${t.description} ${props}`)].filter((w) => ask.has(w)).length;
}

/** The tools sharing a word with the ask, best first (ties in request order), at most MAX_REFERENCES. */
function search(ask: Set<string>, deferred: readonly Deferred[]): Deferred[] {
  return deferred
    .map((t, i) => ({ t, i, s: scoreOf(ask, t) }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .slice(0, MAX_REFERENCES)
    .map((x) => x.t);
}

// ---- Anthropic Messages ----

function anthropicReply(r: StandInRequest, content: Json[], stop: string): ScriptStep {
  const body = r.body as unknown as { tools?: Json[]; messages?: { content: Json[] }[] };
  const referenced = new Set(
    (body.messages ?? [])
      .flatMap((m) => m.content)
      .flatMap((b) =>
        b.type === 'tool_search_tool_result'
          ? (((b.content as Json)?.tool_references as Json[]) ?? [])
          : Array.isArray(b.content)
            ? (b.content as Json[])
            : [],
      )
      .filter((c) => c.type === 'tool_reference')
      .map((c) => c.tool_name),
  );
  return {
    kind: 'reply',
    body: {
      id: `msg_standin_${r.index}`,
      type: 'message',
      role: 'assistant',
      content,
      stop_reason: stop,
      usage: {
        input_tokens: usageTokens(
          r,
          (body.tools ?? []).filter((t) => referenced.has(t.name)),
        ),
        output_tokens: 20,
      },
    },
  };
}

function anthropicAgent(r: StandInRequest): ScriptStep {
  const body = r.body as unknown as { tools?: Json[]; messages?: { role: string; content: Json[] }[] };
  const tools = body.tools ?? [];
  const messages = body.messages ?? [];
  const deferred: Deferred[] = tools
    .filter((t) => t.defer_loading === true)
    .map((t) => ({ name: String(t.name), description: String(t.description ?? ''), schema: t.input_schema as Json }));
  const byName = new Map(deferred.map((t) => [t.name, t]));
  const blocks = messages.flatMap((m) => m.content);
  const ask = askOf(blocks.filter((b) => b.type === 'text').map((b) => String(b.text)));
  const last = messages.at(-1)?.content ?? [];
  const lastResults = last.filter((b) => b.type === 'tool_result');
  const call = (t: Deferred, i: number): Json => ({
    type: 'tool_use',
    id: `toolu_standin_${r.index}_${i}`,
    name: t.name,
    input: placeholderArguments(t.schema),
  });
  // After a client search's tool_result of tool_reference blocks: call the best referenced tool.
  const referenced = lastResults.flatMap((b) =>
    (Array.isArray(b.content) ? (b.content as Json[]) : []).filter((c) => c.type === 'tool_reference'),
  );
  if (referenced.length) {
    const best = search(
      ask,
      referenced.flatMap((c) => byName.get(String(c.tool_name)) ?? []),
    )[0];
    return best ? anthropicReply(r, [call(best, 0)], 'tool_use') : anthropicReply(r, [{ type: 'text', text: 'Nothing fits.' }], 'end_turn');
  }
  if (lastResults.length) return anthropicReply(r, [{ type: 'text', text: 'Done.' }], 'end_turn');
  const searchTool = tools.find((t) => typeof t.type === 'string' && String(t.type).startsWith('tool_search_tool_'));
  const best = search(ask, deferred)[0];
  if (!best) return anthropicReply(r, [{ type: 'text', text: 'No tool needed.' }], 'end_turn');
  // Loaded by a search earlier in the request (carried from an earlier turn): called without searching.
  const loaded = new Set(
    blocks
      .filter((b) => b.type === 'tool_search_tool_result')
      .flatMap((b) => ((b.content as Json)?.tool_references as Json[] | undefined) ?? [])
      .map((ref) => String(ref.tool_name)),
  );
  if (loaded.has(best.name)) return anthropicReply(r, [call(best, 0)], 'tool_use');
  if (!searchTool) {
    const query = [...ask].join(' ');
    return anthropicReply(r, [{ type: 'tool_use', id: `toolu_search_${r.index}`, name: 'tool_search', input: { query } }], 'tool_use');
  }
  const regex = String(searchTool.type).startsWith('tool_search_tool_regex');
  const input = regex ? { pattern: `(?i)${[...ask].slice(0, 2).join('|')}` } : { query: [...ask].join(' ') };
  const id = `srvtoolu_standin_${r.index}`;
  const found = search(ask, deferred);
  return anthropicReply(
    r,
    [
      { type: 'server_tool_use', id, name: searchTool.name, input },
      {
        type: 'tool_search_tool_result',
        tool_use_id: id,
        content: {
          type: 'tool_search_tool_search_result',
          tool_references: found.map((t) => ({ type: 'tool_reference', tool_name: t.name })),
        },
      },
      call(best, 0),
    ],
    'tool_use',
  );
}

// ---- OpenAI Responses ----

function responsesReply(r: StandInRequest, output: Json[]): ScriptStep {
  // A tool_search_output in the input holds the loaded functions already.
  return {
    kind: 'reply',
    body: {
      id: `resp_standin_${r.index}`,
      object: 'response',
      status: 'completed',
      output,
      usage: { input_tokens: usageTokens(r, []), output_tokens: 20, input_tokens_details: { cached_tokens: 0 } },
    },
  };
}

function namespacesOf(tools: readonly Json[]): Deferred[] {
  return tools
    .filter((t) => t.type === 'namespace')
    .flatMap((ns) =>
      ((ns.tools as Json[]) ?? []).map((f) => ({
        name: String(f.name),
        namespace: String(ns.name),
        description: String(f.description ?? ''),
        schema: f.parameters as Json,
      })),
    );
}

function functionCall(r: StandInRequest, t: Deferred): Json {
  return {
    type: 'function_call',
    id: `fc_standin_${r.index}`,
    call_id: `call_standin_${r.index}`,
    name: t.name,
    ...(t.namespace ? { namespace: t.namespace } : {}),
    arguments: JSON.stringify(placeholderArguments(t.schema)),
    status: 'completed',
  };
}

/** Namespaces holding these functions, as a `tool_search_output` lists what it loaded. */
function loadedNamespaces(found: readonly Deferred[], tools: readonly Json[]): Json[] {
  return tools
    .filter((ns) => ns.type === 'namespace' && found.some((f) => f.namespace === ns.name))
    .map((ns) => ({
      ...ns,
      tools: ((ns.tools as Json[]) ?? []).filter((f) => found.some((x) => x.namespace === ns.name && x.name === f.name)),
    }));
}

function responsesAgent(r: StandInRequest): ScriptStep {
  const body = r.body as unknown as { tools?: Json[]; input?: Json[] };
  const tools = body.tools ?? [];
  const input = body.input ?? [];
  const deferred = namespacesOf(tools);
  const ask = askOf(input.filter((i) => i.role === 'user').map((i) => String(i.content)));
  const last = input.at(-1);
  if (last?.type === 'function_call_output')
    return responsesReply(r, [
      {
        type: 'message',
        id: `msg_standin_${r.index}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Done.', annotations: [] }],
      },
    ]);
  if (last?.type === 'tool_search_output') {
    const best = search(ask, namespacesOf((last.tools as Json[]) ?? []))[0];
    return best ? responsesReply(r, [functionCall(r, best)]) : responsesReply(r, []);
  }
  const searchTool = tools.find((t) => t.type === 'tool_search');
  const found = search(ask, deferred);
  if (!searchTool || !found.length) return responsesReply(r, []);
  if (searchTool.execution === 'client')
    return responsesReply(r, [
      {
        type: 'tool_search_call',
        id: `tsc_standin_${r.index}`,
        call_id: `call_ts_${r.index}`,
        execution: 'client',
        status: 'completed',
        arguments: { query: [...ask].join(' ') },
      },
    ]);
  // Loaded by a hosted search earlier in the request: called without searching.
  const earlier = namespacesOf(input.filter((i) => i.type === 'tool_search_output').flatMap((i) => (i.tools as Json[]) ?? []));
  if (earlier.some((t) => t.name === found[0]!.name && t.namespace === found[0]!.namespace))
    return responsesReply(r, [functionCall(r, found[0]!)]);
  return responsesReply(r, [
    {
      type: 'tool_search_call',
      id: `tsc_standin_${r.index}`,
      execution: 'server',
      call_id: null,
      status: 'completed',
      arguments: { paths: [...new Set(found.map((f) => f.namespace))] },
    },
    {
      type: 'tool_search_output',
      id: `tso_standin_${r.index}`,
      execution: 'server',
      call_id: null,
      status: 'completed',
      tools: loadedNamespaces(found, tools),
    },
    functionCall(r, found[0]!),
  ]);
}
