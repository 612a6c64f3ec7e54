import type { McpTool } from '../../catalog/types.ts';
import { serializeToolDefinition } from '../../catalog/types.ts';
import { section, toolListSection } from '../../prompt/sections.ts';
import { DEFAULT_QUERY_MODE, describeQueryMode, turnQuery, type QueryMode } from '../../retrieval/query.ts';
import { retrieverFit, retrieverRecord } from '../../retrieval/recorded-settings.ts';
import type { Task } from '../../tasks/types.ts';
import type { DiscoveryCall, Pipeline, PipelineSettings, PipelineContext, PromptSection, TurnInput, TurnResult } from '../types.ts';
import { NAMESPACE_MAX_FUNCTIONS } from './namespaces.ts';
import { checkedReferences, MAX_REGEX_CHARS, REFERENCES_RANGE } from './semantics.ts';
import { searchTurn, turnDraws, type SearchBand } from '../../sim/search-model.ts';
import { PROJECTION_PARAMS, valuesOf, type ProjectionParams } from '../../sim/projection/params.ts';
import { CatalogSearch, type SearchEngineKind } from './catalog-search.ts';
import { PLACED_LABELS, TaskSearches, type RenderSearch } from './placement.ts';
import {
  anthropicClientSearchResult,
  anthropicSearchResult,
  anthropicServerToolUse,
  CLIENT_SEARCH_TOOL,
  openAiNamespace,
  openAiSearchCall,
} from './shapes.ts';

/**
 * The mitigation the hosts ship: tool search with deferred loading. Every tool is deferred
 * (`defer_loading: true`): its definition is not in the prompt until a search loads it.
 *
 * - `anthropic-bm25`, `anthropic-regex`: Anthropic's tool search tool. The prompt holds the
 *   search tool's definition after the system text. On a turn that needs a tool the model
 *   searches once (a `server_tool_use` block), the API answers with `tool_reference` blocks
 *   (`references`, 3–5 as documented) and expands them into full definitions, which stay loaded
 *   for the rest of the task. The search runs with the host's semantics (./semantics.ts).
 * - `openai`: OpenAI's hosted `tool_search` in the Responses API with namespaces sized as OpenAI
 *   advises (fewer than 10 functions, ./namespaces.ts): each namespace's name and description
 *   are visible up front, its functions are deferred. The model asks for a namespace by path
 *   (`{"paths": [...]}`, the built-in search's input): it picks the namespace whose name and
 *   description best match what it would search for (the host BM25 stand-in over the namespace
 *   texts; what it searches for is the searching model's), and every function of that namespace
 *   is loaded, in a `tool_search_output` item at the point of the search.
 * - `openai-client`: OpenAI's client-executed `tool_search` (`execution: "client"`): the same
 *   namespaces up front, the model writes `{"query": …}` (the schema the application declares),
 *   the application runs its own search (the run's retriever over the functions) and answers
 *   with a `tool_search_output` holding the best `references` functions in their namespaces.
 * - `client`: the same request shapes (Anthropic's custom-tool form: a `tool_search` tool whose
 *   `tool_result` holds `tool_reference` blocks) with the client running the harness's default
 *   retriever: what a better search buys inside the host's protocol.
 *
 * What the model writes and when it searches is the searching model (src/sim/search-model.ts,
 * `band`: the calibrated point by default; `lower` is one search per tool turn with the raw
 * request, `upper` every search in the needed tools' own words). Each search is one more model
 * round trip (a discovery call), and its call and result stay in the context with the loaded
 * definitions where the provider places them: in the conversation at the search (./placement.ts),
 * so a later turn's prompt starts with the earlier one's.
 */
export type HostSearchKind = 'anthropic-bm25' | 'anthropic-regex' | 'openai' | 'openai-client' | 'client';

/**
 * The labels of the sections that stand for the host's search (the search tool, the namespaces)
 * and for the searches the bench simulates (a search's call and result, the definitions it
 * loaded): live mode declares the search in the request instead, and its model runs its own
 * searches (src/live/prompt-bridge.ts).
 */
export const SEARCH_SECTION_LABELS = {
  searchTool: 'tool-search-tool',
  namespaces: 'namespaces',
  ...PLACED_LABELS,
} as const;

export interface HostSearchOptions {
  kind: HostSearchKind;
  /** References a search returns (3–5, the documented range; default 5). */
  references?: number;
  /** What text of the turn the model searches with (default DEFAULT_QUERY_MODE). */
  query?: QueryMode;
  /** Which searching model writes the searches (default `calibrated`). */
  band?: SearchBand;
  /** The searching model's parameters (default PROJECTION_PARAMS; the calibration study varies them). */
  params?: ProjectionParams;
  /** Client search: the retriever (default: the run's, else DEFAULT_RETRIEVER). */
  retriever?: string;
}

const IDS: Record<HostSearchKind, { id: string; label: string }> = {
  'anthropic-bm25': { id: 'anthropic-tool-search-bm25', label: 'Anthropic tool search (BM25)' },
  'anthropic-regex': { id: 'anthropic-tool-search-regex', label: 'Anthropic tool search (regex)' },
  openai: { id: 'openai-tool-search', label: 'OpenAI tool_search (namespaces)' },
  'openai-client': { id: 'openai-client-search', label: 'OpenAI tool_search (client-executed)' },
  client: { id: 'client-search', label: 'Client tool search (default retriever)' },
};

/**
 * The search tool as the model is given it. The server tools' definitions are the host's and
 * not published (Anthropic gives ≈500 tokens for its tool): these stand in, with the input the
 * documentation names (`query` or `pattern`).
 */
const SEARCH_TOOL: Record<HostSearchKind, McpTool> = {
  'anthropic-bm25': {
    name: 'tool_search_tool_bm25',
    description:
      'Search the deferred tools with a natural-language query. Searches tool names, descriptions, argument names and argument descriptions, and loads the 3-5 most relevant tools, which can then be called.',
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string', description: 'What the tool should do.' } },
      required: ['query'],
    },
  },
  'anthropic-regex': {
    name: 'tool_search_tool_regex',
    description: `Search the deferred tools with a Python re.search() pattern of at most ${MAX_REGEX_CHARS} characters over tool names, descriptions, argument names and argument descriptions; loads the matching tools, which can then be called.`,
    inputSchema: {
      type: 'object',
      properties: { pattern: { type: 'string', description: 'A Python regular expression.' } },
      required: ['pattern'],
    },
  },
  openai: {
    name: 'tool_search',
    description: 'Load the functions of the namespaces above by path; loaded functions can then be called.',
    inputSchema: {
      type: 'object',
      properties: { paths: { type: 'array', items: { type: 'string' }, description: 'Namespace names to load.' } },
      required: ['paths'],
    },
  },
  'openai-client': CLIENT_SEARCH_TOOL,
  client: CLIENT_SEARCH_TOOL,
};

/** What each kind runs: the host's BM25 or regex, OpenAI's namespaces by path, or the client's retriever. */
const ENGINE: Record<HostSearchKind, SearchEngineKind> = {
  'anthropic-bm25': 'bm25',
  'anthropic-regex': 'regex',
  openai: 'namespaces',
  'openai-client': 'client',
  client: 'client',
};

/** The provider whose request shapes a kind renders. */
function providerOf(kind: HostSearchKind): 'anthropic' | 'openai' {
  return kind === 'openai' || kind === 'openai-client' ? 'openai' : 'anthropic';
}

/** A search's call and result in the kind's conversation items. */
function searchRenderer(kind: HostSearchKind, catalog: CatalogSearch): RenderSearch {
  return (n, input, names) => {
    if (kind === 'client') {
      const useId = `toolu_search_${n}`;
      return [{ type: 'tool_use', id: useId, name: CLIENT_SEARCH_TOOL.name, input }, anthropicClientSearchResult(useId, names)];
    }
    if (kind === 'openai' || kind === 'openai-client') {
      const execution = kind === 'openai' ? 'server' : 'client';
      const id = `tsc_${n}`;
      const args = kind === 'openai' ? { paths: 'query' in input ? catalog.paths(input.query) : [] } : input;
      const output = { type: 'tool_search_output', call_id: execution === 'server' ? null : id, execution, status: 'completed' };
      return [openAiSearchCall(id, args, execution), output];
    }
    const useId = `srvtoolu_${n}`;
    const variant = kind === 'anthropic-bm25' ? 'bm25' : 'regex';
    return [anthropicServerToolUse(useId, variant, input), anthropicSearchResult(useId, names)];
  };
}

/** The sections the model sees before the conversation: OpenAI's namespaces (names and descriptions), then the search tool. */
function upfrontSections(kind: HostSearchKind, catalog: CatalogSearch): PromptSection[] {
  const searchTool = SEARCH_TOOL[kind];
  const out = [toolListSection(SEARCH_SECTION_LABELS.searchTool, serializeToolDefinition(searchTool), true, [searchTool])];
  if (providerOf(kind) === 'openai') {
    const shown = catalog.namespaces.map((n) => JSON.stringify(openAiNamespace(n.name, n.description, [])));
    out.unshift(section('tools', SEARCH_SECTION_LABELS.namespaces, shown.join('\n'), true));
  }
  return out;
}

export function createHostSearchPipeline(options: HostSearchOptions): Pipeline {
  const kind = options.kind;
  const references = checkedReferences(options.references ?? REFERENCES_RANGE.max);
  const queryMode = options.query ?? DEFAULT_QUERY_MODE;
  const band = options.band ?? 'calibrated';
  const syntax = kind === 'anthropic-regex' ? 'regex' : 'query';
  const { id, label } = IDS[kind];
  const catalog = new CatalogSearch(ENGINE[kind], references, queryMode, options.retriever);
  const render = searchRenderer(kind, catalog);
  let upfront: PromptSection[] = [];
  let task = new TaskSearches(catalog, render);
  let seed = 0;

  const neededTools = (t: Task, turnIndex: number, ids: readonly string[]) =>
    ids.map((toolId) => {
      const tool = catalog.byId.get(toolId);
      if (!tool) throw new Error(`${id}: task ${t.id} turn ${turnIndex + 1} needs ${toolId}, which is not in the catalog`);
      return tool;
    });

  return {
    id,
    label,
    async prepare(ctx: PipelineContext) {
      seed = ctx.seed;
      await catalog.prepare(ctx, providerOf(kind) === 'openai');
      upfront = upfrontSections(kind, catalog);
    },
    startTask() {
      task = new TaskSearches(catalog, render);
    },
    async turn({ task: t, turnIndex, turn, shared }: TurnInput): Promise<TurnResult> {
      const request = turnQuery(t.turns, turnIndex, queryMode);
      const steps = await searchTurn({
        request,
        needed: neededTools(t, turnIndex, turn.tools),
        loaded: new Set(task.loaded),
        ran: task.ran,
        syntax,
        band,
        draw: turnDraws(seed, t.id, turnIndex),
        values: valuesOf(options.params ?? PROJECTION_PARAMS),
        engine: catalog.engine(t, turnIndex, request),
      });
      const discoveryCalls: DiscoveryCall[] = [];
      for (const { input, found } of steps) {
        task.add(turnIndex, input, found);
        discoveryCalls.push({ command: `${SEARCH_TOOL[kind].name} ${JSON.stringify(input)}`, output: found.join('\n') });
      }
      return {
        prompt: { sections: task.prompt(shared, upfront, turnIndex) },
        exposure: { listedTools: [...task.loaded], fullSchemaTools: [...task.loaded], discoveryCalls },
      };
    },
    search: (input) => catalog.runOnTools(input),
    describe: () => describeHostSearch(kind, references, band, queryMode, catalog),
  };
}

/** The run record's description of a host search pipeline. */
function describeHostSearch(
  kind: HostSearchKind,
  references: number,
  band: SearchBand,
  queryMode: QueryMode,
  catalog: CatalogSearch,
): PipelineSettings {
  const retriever = catalog.retriever;
  const clientRuns = kind === 'client' || kind === 'openai-client';
  const engineRule =
    kind === 'anthropic-regex'
      ? 'matches in request order'
      : clientRuns
        ? `the run's retriever ${retriever?.name ?? '?'}`
        : `the host's BM25, stood in for by ${retriever?.name ?? '?'}; tools with a positive score, at least ${REFERENCES_RANGE.min}`;
  const rule = `${engineRule}; searches written by the searching model (${band}; src/sim/search-model.ts) from the ${describeQueryMode(queryMode)}`;
  const host = providerOf(kind);
  return {
    fitted: retrieverFit(retriever, catalog.fitted),
    toolSearch: {
      execution: clientRuns ? 'client' : 'server',
      ...(kind === 'client' ? {} : { provider: host }),
      ...(kind === 'anthropic-bm25' ? { variant: 'bm25' } : kind === 'anthropic-regex' ? { variant: 'regex' } : {}),
      references,
    },
    retrieval: {
      ...(retriever ? retrieverRecord(retriever) : { encoder: 'regex' }),
      k: references,
      toolText: 'name, description, argument names, argument descriptions',
      query: describeQueryMode(queryMode),
    },
    details: {
      host,
      search: rule,
      band,
      references,
      deferred: 'every tool (defer_loading: true); loaded definitions stay for the rest of the task',
      assumptions: [
        band === 'lower'
          ? 'the model searches once on each turn that needs a tool, with the turn text as its query (never the needed tools)'
          : band === 'upper'
            ? "upper bound: every search in the needed tool's own words, one capability per needed tool not yet loaded"
            : "one capability per needed tool not yet loaded; each search in the tool's vocabulary with the calibrated probability search.knowledge, else from the request; again when nothing fitting came back (capped)",
        "each search is one more model round trip; its call and result, and the definitions it loaded, sit in the conversation at the search (after the earlier turns, before its own turn's transcript), as the providers place them",
        kind === 'openai'
          ? `namespaces of at most ${NAMESPACE_MAX_FUNCTIONS} functions (a server's tools cut by their names' object words), described by their functions' names in words; a search asks for the namespace that best matches what the model looks for ({"paths": [...]}) and loads it whole; OpenAI publishes neither how the model picks a path nor its hosted search`
          : kind === 'openai-client'
            ? `the same namespaces up front; the application runs the search on {"query"} and returns the best ${references} functions in their namespaces (execution: "client")`
            : 'the search tool’s own definition is a stand-in with the documented input (the host’s text is not published)',
      ],
    },
  };
}
