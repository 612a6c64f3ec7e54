import type { CatalogTool } from '../../catalog/types.ts';
import { serializeToolDefinition } from '../../catalog/types.ts';
import type { QueryMode } from '../../retrieval/query.ts';
import { DEFAULT_RETRIEVER, retrieverByName } from '../../retrieval/registry.ts';
import { taskRankings } from '../../retrieval/task-rankings.ts';
import { Ranking, skipReason, type FittedRetriever, type Retriever } from '../../retrieval/types.ts';
import type { SearchEngine, SearchInput } from '../../sim/search-model.ts';
import type { Task } from '../../tasks/types.ts';
import type { PipelineContext } from '../types.ts';
import { openAiNamespaces, type OpenAiNamespace } from './namespaces.ts';
import { hostBm25Retriever, hostReferences, hostSearchText, regexSearch } from './semantics.ts';

/** Which search the host runs: Anthropic's BM25 or regex, OpenAI's namespaces by path, or the client's retriever. */
export type SearchEngineKind = 'bm25' | 'regex' | 'namespaces' | 'client';

/** Search results remembered per pipeline at most. */
const MAX_SEARCHED = 50_000;

/**
 * The catalog as one host search pipeline searches it, for a run: each tool's serialised
 * definition, the searched texts, the fitted retriever (BM25 stand-in or the client's), and for
 * OpenAI's hosted search the namespaces with their own BM25 stand-in.
 */
export class CatalogSearch {
  tools: readonly CatalogTool[] = [];
  byId = new Map<string, CatalogTool>();
  /** Each tool's definition as the list sends it, serialised once per run (loaded on many tasks). */
  serialized = new Map<string, string>();
  retriever: Retriever | undefined;
  fitted: FittedRetriever | undefined;
  namespaces: OpenAiNamespace[] = [];
  private texts: string[] = [];
  private namespaceIndex: FittedRetriever | undefined;
  /** The namespace path each hosted search asked for, by the query that chose it. */
  private readonly pathsOf = new Map<string, string[]>();
  // The results of each search the model wrote, for the run: a capability's phrase recurs in
  // every task that needs the tool. Bounded, then started over.
  private searched = new Map<string, readonly string[]>();

  constructor(
    private readonly engineKind: SearchEngineKind,
    private readonly references: number,
    private readonly queryMode: QueryMode,
    private readonly retrieverName?: string,
  ) {}

  async prepare(ctx: PipelineContext, withNamespaces: boolean): Promise<void> {
    this.tools = ctx.catalog.tools;
    this.searched = new Map();
    this.byId = new Map(this.tools.map((t) => [t.id, t]));
    this.serialized = new Map(this.tools.map((t) => [t.id, serializeToolDefinition(t.definition)]));
    this.texts = this.tools.map(hostSearchText);
    this.retriever =
      this.engineKind === 'client'
        ? retrieverByName(this.retrieverName ?? ctx.retriever ?? DEFAULT_RETRIEVER)
        : this.engineKind === 'regex'
          ? undefined
          : hostBm25Retriever();
    // A catalog smaller than the retriever can index (bm25 needs 3 tools) is smaller than the 3-5
    // references a search returns: there every search returns every tool.
    this.fitted = this.retriever && !skipReason(this.retriever, this.tools.length) ? await this.retriever.fit(this.tools) : undefined;
    this.namespaces = withNamespaces ? ctx.catalog.servers.flatMap((server) => openAiNamespaces(server, this.tools)) : [];
    this.namespaceIndex = undefined;
    if (this.engineKind === 'namespaces') {
      const index = hostBm25Retriever();
      const entries = this.namespaces.map(namespaceEntry);
      this.namespaceIndex = skipReason(index, entries.length) ? undefined : await index.fit(entries);
    }
  }

  /** The namespace paths a hosted search with this query asked for (empty before it ran). */
  paths(query: string): string[] {
    return this.pathsOf.get(query) ?? [];
  }

  /** The search engine of one turn: the turn's own request ranked once per task (taskRankings), any other input run and remembered. */
  engine(task: Task, turnIndex: number, request: string): SearchEngine {
    return async (input) => {
      if (this.engineKind !== 'namespaces' && this.fitted && 'query' in input && input.query === request)
        return this.fromRanking((await taskRankings(this.fitted, task, this.queryMode))[turnIndex]!);
      const key = JSON.stringify(input);
      let found = this.searched.get(key);
      if (!found) {
        if (this.searched.size >= MAX_SEARCHED) this.searched.clear();
        this.searched.set(key, (found = await this.run(input)));
      }
      return found;
    };
  }

  /** One search the model wrote, run on the catalog (OpenAI's hosted search: a namespace by path). */
  private run(input: SearchInput): Promise<string[]> {
    return this.engineKind === 'namespaces' && 'query' in input ? this.loadNamespace(input.query) : this.runOnTools(input);
  }

  /** The tool ids a search with this input returns from the tools themselves (the model's own query or pattern, in live mode). */
  async runOnTools(input: SearchInput): Promise<string[]> {
    if ('pattern' in input) return input.pattern ? regexSearch(input.pattern, this.tools, this.texts, this.references) : [];
    if (!this.fitted) return this.tools.slice(0, this.references).map((t) => t.id);
    const [scores] = await this.fitted.score([input.query]);
    return this.fromRanking(new Ranking(this.fitted.ids, scores!));
  }

  /** The tools a BM25 or client search returns from a ranking. */
  private fromRanking(ranking: Ranking): string[] {
    return this.engineKind === 'client' ? ranking.top(this.references).map((h) => h.id) : hostReferences(ranking, this.references);
  }

  /** OpenAI: the namespace the model asks for when it looks for `query`, loaded whole (its path remembered for the call). */
  private async loadNamespace(query: string): Promise<string[]> {
    let ns = this.namespaces[0];
    if (this.namespaceIndex) {
      const [scores] = await this.namespaceIndex.score([query]);
      const best = new Ranking(this.namespaceIndex.ids, scores!).top(1)[0];
      ns = this.namespaces.find((n) => n.name === best?.id) ?? ns;
    }
    if (!ns) return [];
    this.pathsOf.set(query, [ns.name]);
    return ns.tools.map((t) => t.id);
  }
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
