import type { Catalog, CatalogTool, McpTool } from '../../catalog/types.ts';
import { serializeToolDefinition } from '../../catalog/types.ts';
import { toolListSection } from '../../prompt/sections.ts';
import { createBm25Retriever } from '../../retrieval/bm25.ts';
import { rankScores, type FittedRetriever } from '../../retrieval/types.ts';
import type { PromptSection } from '../types.ts';
import { PROJECTION_PARAMS, valuesOf } from '../../sim/projection/params.ts';
import { searchTurn, turnDraws, type SearchBand } from '../../sim/search-model.ts';
import type { Task } from '../../tasks/types.ts';

/**
 * The code-execution tool of the code pipelines that send no Code Mode API: a sandbox that runs
 * the model's script and returns what it prints (Anthropic's code execution tool is a server
 * tool whose definition the API does not publish; this is its MCP-shaped stand-in, modelled).
 */
export const CODE_EXECUTION_TOOL: McpTool = {
  name: 'code_execution',
  description:
    'Run a JavaScript (ES2023) script in a sandbox with top-level await. The tools are async functions in scope; only what the script prints with console.log is returned to you, so filter and summarise results in code.',
  inputSchema: { type: 'object', properties: { code: { type: 'string', description: 'The script to run' } }, required: ['code'] },
};

/** A stable tools section of whole MCP tool definitions (the tools/list form, as B1 renders it). */
export function toolsSection(label: string, tools: readonly McpTool[], stable = true): PromptSection {
  return toolListSection(label, ['Available tools (MCP tools/list):', ...tools.map(serializeToolDefinition)].join('\n'), stable, tools);
}

/** A catalog search the model calls: the top k tools by BM25 over their text (the bench's own BM25 retriever, untuned). */
export class ToolSearch {
  private fitted: FittedRetriever | undefined;
  private byId = new Map<string, CatalogTool>();
  // Results by query for the run (a capability's phrase recurs in every task that needs the tool); bounded.
  private searched = new Map<string, CatalogTool[]>();

  constructor(readonly k: number) {}

  async prepare(catalog: Catalog): Promise<void> {
    this.byId = new Map(catalog.tools.map((t) => [t.id, t]));
    this.searched = new Map();
    this.fitted = await createBm25Retriever().fit(catalog.tools);
  }

  /**
   * The searches the searching model (src/sim/search-model.ts) runs on a turn with this search:
   * one capability per needed tool not in `loaded`, the calibrated model by default. `ran`
   * (the task's searches so far) is updated.
   */
  async modelSearches(a: {
    task: Task;
    turnIndex: number;
    seed: number;
    loaded: ReadonlySet<string>;
    ran: Map<string, readonly string[]>;
    band?: SearchBand;
  }): Promise<{ query: string; hits: CatalogTool[] }[]> {
    const turn = a.task.turns[a.turnIndex]!;
    const needed = turn.tools.map((id) => {
      const tool = this.byId.get(id);
      if (!tool) throw new Error(`tool search: task ${a.task.id} turn ${a.turnIndex + 1} needs ${id}, which is not in the catalog`);
      return tool;
    });
    const steps = await searchTurn({
      request: turn.user,
      needed,
      loaded: a.loaded,
      ran: a.ran,
      syntax: 'query',
      band: a.band ?? 'calibrated',
      draw: turnDraws(a.seed, a.task.id, a.turnIndex),
      values: valuesOf(PROJECTION_PARAMS),
      engine: async (input) => ('query' in input ? (await this.search(input.query)).map((t) => t.id) : []),
    });
    return steps.map((s) => ({ query: 'query' in s.input ? s.input.query : '', hits: s.found.map((id) => this.byId.get(id)!) }));
  }

  async search(query: string): Promise<CatalogTool[]> {
    if (!this.fitted) throw new Error('tool search: prepare() first');
    const known = this.searched.get(query);
    if (known) return known;
    if (this.searched.size >= 50_000) this.searched.clear();
    const out = await this.rank(query);
    this.searched.set(query, out);
    return out;
  }

  private async rank(query: string): Promise<CatalogTool[]> {
    if (!this.fitted) throw new Error('tool search: prepare() first');
    const [scores] = await this.fitted.score([query]);
    const out: CatalogTool[] = [];
    for (const hit of rankScores(this.fitted.ids, scores!)) {
      if (out.length >= this.k || hit.score <= 0) break;
      out.push(this.byId.get(hit.id)!);
    }
    return out;
  }
}

/** Anthropic's `search_tools` with a detail level, as the engineering post describes it (modelled definition). */
export const SEARCH_TOOLS_TOOL: McpTool = {
  name: 'search_tools',
  description: 'Search the available tools by what they do. Returns matching tools at the requested level of detail.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What the tool should do' },
      detail_level: { type: 'string', enum: ['name_only', 'name_and_description', 'full_definition'] },
    },
    required: ['query'],
  },
};

/**
 * Cloudflare's server-side Code Mode pair (the Cloudflare API MCP server): `search` finds the
 * operations a task needs and returns their types, `execute` runs code against them (modelled
 * definitions, worded after Cloudflare's announcement).
 */
export const SEARCH_EXECUTE_TOOLS: readonly McpTool[] = [
  {
    name: 'search',
    description:
      'Search the API for the operations a task needs. Returns the TypeScript types of the matching operations on the `codemode` object.',
    inputSchema: { type: 'object', properties: { query: { type: 'string', description: 'What you want to do' } }, required: ['query'] },
  },
  {
    name: 'execute',
    description:
      'Execute code against the API. Write an async arrow function in JavaScript that calls the operations found with search on `codemode` and returns the result; only the returned value comes back.',
    inputSchema: {
      type: 'object',
      properties: { code: { type: 'string', description: 'JavaScript async arrow function to execute' } },
      required: ['code'],
    },
  },
];
