import type { CatalogTool, McpTool } from '../../catalog/types.ts';
import { serializeToolDefinition } from '../../catalog/types.ts';
import { section, toolListSection } from '../../prompt/sections.ts';
import { DEFAULT_QUERY_MODE, describeQueryMode, turnQuery, type QueryMode } from '../../retrieval/query.ts';
import { retrieverFit, retrieverRecord } from '../../retrieval/recorded-settings.ts';
import { DEFAULT_RETRIEVER, retrieverByName } from '../../retrieval/registry.ts';
import { taskRankings } from '../../retrieval/task-rankings.ts';
import { Ranking, skipReason, type FittedRetriever, type Retriever } from '../../retrieval/types.ts';
import type { Task } from '../../tasks/types.ts';
import type { DiscoveryCall, Pipeline, PipelineContext, PromptSection, TurnInput, TurnResult } from '../types.ts';
import { NAMESPACE_MAX_FUNCTIONS, openAiNamespaces, type OpenAiNamespace } from './namespaces.ts';
import {
  checkedReferences,
  hostBm25Retriever,
  hostReferences,
  hostSearchText,
  MAX_REGEX_CHARS,
  REFERENCES_RANGE,
  regexSearch,
} from './semantics.ts';
import { searchTurn, turnDraws, type SearchBand, type SearchEngine } from '../../sim/search-model.ts';
import { PROJECTION_PARAMS, valuesOf, type ProjectionParams } from '../../sim/projection/params.ts';
import {
  anthropicClientSearchResult,
  anthropicSearchResult,
  anthropicServerToolUse,
  CLIENT_SEARCH_TOOL,
  openAiNamespace,
  openAiSearchCall,
  type SearchInput,
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
 *   is loaded, in a `tool_search_output` item appended at the end of the context.
 * - `client`: the same request shapes (Anthropic's custom-tool form: a `tool_search` tool whose
 *   `tool_result` holds `tool_reference` blocks) with the client running the harness's default
 *   retriever: what a better search buys inside the host's protocol.
 *
 * What the model writes and when it searches is the searching model (src/sim/search-model.ts,
 * `band`: the calibrated point by default; `lower` is one search per tool turn with the raw
 * request, `upper` every search in the needed tools' own words). Each search is one more model
 * round trip (a discovery call), and its call and result stay in the context with the loaded
 * definitions, after the history: the cached prefix keeps the system text and the search tool.
 */
export type HostSearchKind = 'anthropic-bm25' | 'anthropic-regex' | 'openai' | 'client';

/** Search results remembered per pipeline at most. */
const MAX_SEARCHED = 50_000;

/**
 * The labels of the sections that stand for the host's search (the search tool, the namespaces)
 * and for the searches the bench simulates (a search's call and result, the definitions it
 * loaded): live mode declares the search in the request instead, and its model runs its own
 * searches (src/live/prompt-bridge.ts).
 */
export const SEARCH_SECTION_LABELS = {
  searchTool: 'tool-search-tool',
  namespaces: 'namespaces',
  call: 'tool-search-call',
  loaded: 'loaded-tools',
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
  client: CLIENT_SEARCH_TOOL,
};

export function createHostSearchPipeline(options: HostSearchOptions): Pipeline {
  const kind = options.kind;
  const references = checkedReferences(options.references ?? REFERENCES_RANGE.max);
  const queryMode = options.query ?? DEFAULT_QUERY_MODE;
  const band = options.band ?? 'calibrated';
  const syntax = kind === 'anthropic-regex' ? 'regex' : 'query';
  const { id, label } = IDS[kind];
  let tools: readonly CatalogTool[] = [];
  let byId = new Map<string, CatalogTool>();
  // Each tool's definition as the list sends it, serialised once per run (loaded on many tasks).
  let serialized = new Map<string, string>();
  let texts: string[] = [];
  let retriever: Retriever | undefined;
  let fitted: FittedRetriever | undefined;
  // OpenAI: the namespaces, their BM25 stand-in, and the path each search input asked for.
  let namespaces: OpenAiNamespace[] = [];
  let namespaceIndex: FittedRetriever | undefined;
  const pathsOf = new Map<string, string[]>();
  // The results of each search the model wrote, for the run: a capability's phrase recurs in
  // every task that needs the tool. Bounded, then started over.
  let searched = new Map<string, readonly string[]>();
  let upfront: PromptSection[] = [];
  // One section object per search (its call and result) and per set of definitions it loaded,
  // for the task (never changed): a turn's prompt has two sections per search, not one per tool.
  // Dropped when the next task starts: a search is rarely repeated in another task, and keeping
  // every one (definitions' text included) held tens of MB per pipeline through a run.
  let callSections = new Map<string, PromptSection>();
  let loadedSections = new Map<string, PromptSection>();
  // Per task.
  let loaded: string[] = [];
  let context: PromptSection[] = [];
  let searches = 0;
  // Per task: the searches run so far, by input (their results are in the context).
  let ran = new Map<string, readonly string[]>();
  let seed = 0;

  const loadedSection = (ids: readonly string[]) => {
    const key = ids.join('\u0000');
    let s = loadedSections.get(key);
    if (!s) {
      const definitions = ids.map((i) => byId.get(i)!.definition);
      loadedSections.set(
        key,
        (s = Object.freeze(
          toolListSection(SEARCH_SECTION_LABELS.loaded, ids.map((i) => serialized.get(i)!).join('\n'), false, definitions),
        )),
      );
    }
    return s;
  };

  /** The tools a BM25 or client search returns from a ranking. */
  const fromRanking = (ranking: Ranking) =>
    kind === 'client' ? ranking.top(references).map((h) => h.id) : hostReferences(ranking, references);

  /** The search engine of one turn: the turn's own request ranked once per task (taskRankings), any other query scored. */
  function engine(task: Task, turnIndex: number, request: string): SearchEngine {
    return async (input) => {
      if (kind !== 'openai' && fitted && 'query' in input && input.query === request)
        return fromRanking((await taskRankings(fitted, task, queryMode))[turnIndex]!);
      const key = JSON.stringify(input);
      let found = searched.get(key);
      if (!found) {
        if (searched.size >= MAX_SEARCHED) searched.clear();
        searched.set(key, (found = await runSearch(input)));
      }
      return found;
    };
  }

  /** One search the model wrote, run on the catalog (any input but a turn's own request). */
  async function runSearch(input: SearchInput): Promise<readonly string[]> {
    if ('pattern' in input) return input.pattern ? regexSearch(input.pattern, tools, texts, references) : [];
    if (kind === 'openai') return loadNamespace(input.query);
    if (!fitted) return tools.slice(0, references).map((t) => t.id);
    const [scores] = await fitted.score([input.query]);
    return fromRanking(new Ranking(fitted.ids, scores!));
  }

  /** OpenAI: the namespace the model asks for when it looks for `query`, loaded whole (its path remembered for the call). */
  async function loadNamespace(query: string): Promise<string[]> {
    let ns = namespaces[0];
    if (namespaceIndex) {
      const [scores] = await namespaceIndex.score([query]);
      const best = new Ranking(namespaceIndex.ids, scores!).top(1)[0];
      ns = namespaces.find((n) => n.name === best?.id) ?? ns;
    }
    if (!ns) return [];
    pathsOf.set(query, [ns.name]);
    return ns.tools.map((t) => t.id);
  }

  /** The tool ids a search with this input returns (the model's own query or pattern, in live mode). */
  async function searchInput(input: SearchInput): Promise<string[]> {
    if ('pattern' in input) return input.pattern ? regexSearch(input.pattern, tools, texts, references) : [];
    if (!fitted) return tools.slice(0, references).map((t) => t.id);
    const [scores] = await fitted.score([input.query]);
    return fromRanking(new Ranking(fitted.ids, scores!));
  }

  function callSection(n: number, input: SearchInput, found: readonly string[]): PromptSection {
    const names = found.map((f) => byId.get(f)!.definition.name);
    const key = `${n}\u0000${JSON.stringify(input)}\u0000${names.join(',')}`;
    let s = callSections.get(key);
    if (!s) {
      let lines: unknown[];
      if (kind === 'client') {
        const useId = `toolu_search_${n}`;
        lines = [{ type: 'tool_use', id: useId, name: CLIENT_SEARCH_TOOL.name, input }, anthropicClientSearchResult(useId, names)];
      } else if (kind === 'openai') {
        const callId = `tsc_${n}`;
        lines = [
          openAiSearchCall(callId, { paths: 'query' in input ? (pathsOf.get(input.query) ?? []) : [] }),
          { type: 'tool_search_output', call_id: null, execution: 'server', status: 'completed' },
        ];
      } else {
        const useId = `srvtoolu_${n}`;
        const variant = kind === 'anthropic-bm25' ? 'bm25' : 'regex';
        lines = [anthropicServerToolUse(useId, variant, input), anthropicSearchResult(useId, names)];
      }
      callSections.set(
        key,
        (s = Object.freeze(section('tools', SEARCH_SECTION_LABELS.call, lines.map((l) => JSON.stringify(l)).join('\n'), false))),
      );
    }
    return s;
  }

  return {
    id,
    label,
    async prepare(ctx: PipelineContext) {
      tools = ctx.catalog.tools;
      seed = ctx.seed;
      searched = new Map();
      byId = new Map(tools.map((t) => [t.id, t]));
      serialized = new Map(tools.map((t) => [t.id, serializeToolDefinition(t.definition)]));
      texts = tools.map(hostSearchText);
      if (kind === 'client') retriever = retrieverByName(options.retriever ?? ctx.retriever ?? DEFAULT_RETRIEVER);
      else if (kind !== 'anthropic-regex') retriever = hostBm25Retriever();
      // A catalog smaller than the retriever can index (bm25 needs 3 tools) is smaller than the 3-5
      // references a search returns: there every search returns every tool.
      fitted = retriever && !skipReason(retriever, tools.length) ? await retriever.fit(tools) : undefined;
      const searchTool = SEARCH_TOOL[kind];
      upfront = [toolListSection(SEARCH_SECTION_LABELS.searchTool, serializeToolDefinition(searchTool), true, [searchTool])];
      if (kind === 'openai') {
        namespaces = ctx.catalog.servers.flatMap((server) => openAiNamespaces(server, tools));
        const index = hostBm25Retriever();
        const entries = namespaces.map(namespaceEntry);
        namespaceIndex = skipReason(index, entries.length) ? undefined : await index.fit(entries);
        const shown = namespaces.map((n) => JSON.stringify(openAiNamespace(n.name, n.description, [])));
        upfront.unshift(section('tools', SEARCH_SECTION_LABELS.namespaces, shown.join('\n'), true));
      }
    },
    startTask() {
      loadedSections = new Map();
      callSections = new Map();
      loaded = [];
      context = [];
      searches = 0;
      ran = new Map();
    },
    async turn({ task, turnIndex, turn, shared }: TurnInput): Promise<TurnResult> {
      const discoveryCalls: DiscoveryCall[] = [];
      const request = turnQuery(task.turns, turnIndex, queryMode);
      const needed = turn.tools.map((t) => {
        const tool = byId.get(t);
        if (!tool) throw new Error(`${id}: task ${task.id} turn ${turnIndex + 1} needs ${t}, which is not in the catalog`);
        return tool;
      });
      const steps = await searchTurn({
        request,
        needed,
        loaded: new Set(loaded),
        ran,
        syntax,
        band,
        draw: turnDraws(seed, task.id, turnIndex),
        values: valuesOf(options.params ?? PROJECTION_PARAMS),
        engine: engine(task, turnIndex, request),
      });
      for (const { input, found } of steps) {
        context.push(callSection(++searches, input, found));
        const fresh = found.filter((f) => !loaded.includes(f));
        if (fresh.length) {
          loaded.push(...fresh);
          context.push(loadedSection(fresh));
        }
        discoveryCalls.push({ command: `${SEARCH_TOOL[kind].name} ${JSON.stringify(input)}`, output: found.join('\n') });
      }
      return {
        prompt: { sections: [shared.system, ...upfront, ...shared.history, ...context, shared.user] },
        exposure: { listedTools: [...loaded], fullSchemaTools: [...loaded], discoveryCalls },
      };
    },
    search: searchInput,
    describe() {
      const engineRule =
        kind === 'anthropic-regex'
          ? 'matches in request order'
          : kind === 'client'
            ? `the run's retriever ${retriever?.name ?? '?'}`
            : `the host's BM25, stood in for by ${retriever?.name ?? '?'}; tools with a positive score, at least ${REFERENCES_RANGE.min}`;
      const rule = `${engineRule}; searches written by the searching model (${band}; src/sim/search-model.ts) from the ${describeQueryMode(queryMode)}`;
      return {
        fitted: retrieverFit(retriever, fitted),
        toolSearch: {
          execution: kind === 'client' ? 'client' : 'server',
          ...(kind === 'client' ? {} : { provider: kind === 'openai' ? 'openai' : 'anthropic' }),
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
          host: kind === 'openai' ? 'openai' : 'anthropic',
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
            'each search is one more model round trip; its call and result stay in the context after the history, with the definitions it loaded',
            kind === 'openai'
              ? `namespaces of at most ${NAMESPACE_MAX_FUNCTIONS} functions (a server's tools cut by their names' object words), described by their functions' names in words; a search asks for the namespace that best matches what the model looks for ({"paths": [...]}) and loads it whole; OpenAI publishes neither how the model picks a path nor its hosted search`
              : 'the search tool’s own definition is a stand-in with the documented input (the host’s text is not published)',
          ],
        },
      };
    },
  };
}

/** A namespace as an entry of the BM25 stand-in: its name and description are what the model reads up front. */
function namespaceEntry(ns: OpenAiNamespace): CatalogTool {
  return {
    id: ns.name,
    server: '',
    name: ns.name,
    definition: { name: ns.name, description: ns.description, inputSchema: { type: 'object' } },
    summary: ns.description,
    summarySource: 'derived',
    tags: [],
    preconditions: [],
  };
}
