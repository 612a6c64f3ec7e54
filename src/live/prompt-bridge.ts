import { serializeToolDefinition, type Catalog, type CatalogTool, type McpTool } from '../catalog/types.ts';
import { isObject } from '../util/json.ts';
import { openAiNamespaces } from '../pipelines/host-search/namespaces.ts';
import { qualifiedName } from './tool-search-requests.ts';
import { SEARCH_SECTION_LABELS } from '../pipelines/host-search/pipeline.ts';
import { CLIENT_SEARCH_TOOL } from '../pipelines/host-search/shapes.ts';
import type { DiscoveryCall, PromptSection, ToolSearchSettings, TurnResult } from '../pipelines/types.ts';
import { CODE_EXECUTION_TOOL, SEARCH_EXECUTE_TOOLS, SEARCH_TOOLS_TOOL } from '../pipelines/code-mode/tools.ts';
import type { LiveToolSearch, LiveToolSpec } from './types.ts';

/** The CLI tool B4-style pipelines get instead of tool schemas: one command line per call. */
export const SHELL_TOOL: LiveToolSpec = {
  name: 'shell',
  description: 'Run one command line and return its output.',
  parameters: {
    type: 'object',
    properties: { command: { type: 'string', description: 'the command line to run' } },
    required: ['command'],
  },
};

/** The tools through which a model sends code (src/pipelines/code-mode): the executor runs their `code` in the sandbox. */
export const CODE_TOOL_NAMES: ReadonlySet<string> = new Set(['codemode', SEARCH_EXECUTE_TOOLS[1]!.name, CODE_EXECUTION_TOOL.name]);

/** A code pipeline's own search tools (search-execute's `search`, code-mode-files' `search_tools`): the pipeline answers them (Pipeline.answerTool). */
export const PIPELINE_SEARCH_TOOL_NAMES: ReadonlySet<string> = new Set([SEARCH_EXECUTE_TOOLS[0]!.name, SEARCH_TOOLS_TOOL.name]);

/** Provider-safe tool name of a catalog tool (`server/name` → `server__name`, other characters → `_`). */
export function providerToolName(tool: CatalogTool): string {
  return safeName(tool.id.replace(/\//g, '__')).slice(0, 64);
}

const safeName = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_');

export interface LivePrompt {
  /** System text: the system section and the stable tool text (summary pool, CLI description). */
  system: string;
  /** The turn's user message: history, per-turn tool text, then the user's message. */
  user: string;
  /** The same text in two parts: the history, and what follows it (where earlier tool searches go between them). */
  history: string;
  afterHistory: string;
  tools: LiveToolSpec[];
  /** A tool search pipeline's search and deferred tools (every catalog tool), declared in the request. */
  toolSearch?: LiveToolSearch;
  /** The definitions a host profile counts for the search tool (the pipeline's stand-in for the host's own). */
  searchToolDefinitions: McpTool[];
  /** Catalog tools passed as provider tools, by provider name. */
  toolByName: Map<string, CatalogTool>;
  /** Sections left out because the live model makes those calls itself (B4's --list/--help). */
  droppedDiscovery: number;
}

/**
 * A pipeline's exact prompt as a provider request, section by section, without asking which
 * pipeline made it:
 * - a `tools` section made only of MCP tool definitions (a heading, then one tools/list JSON per
 *   line) goes to the provider's tool parameter, as a host would pass it, with the tool use
 *   examples (`input_examples`) a definition carries beside the catalog's;
 * - a `tools` section of a code pipeline's own tools (its code tool, its search tool) is sent as
 *   those tools;
 * - a discovery call's output (`$ command` + output, from this task's exposure) is dropped: the
 *   live model runs its own `--list`/`--help` through the shell tool and gets the real text;
 * - every other section is text: stable ones in the system prompt, the rest in the user turn.
 * `cli` pipelines (their settings declare a discovery mode) get the shell tool. A tool search
 * pipeline (its settings' `toolSearch`) sends every catalog tool deferred with the search
 * declared as the provider documents it; the sections that stand for the search and for the
 * searches the bench simulated are left out (as B4's discovery outputs are): the live model runs
 * its own searches.
 */
export function livePrompt(
  result: TurnResult,
  catalog: Catalog,
  taskDiscovery: readonly DiscoveryCall[],
  cli: boolean,
  search?: ToolSearchSettings,
): LivePrompt {
  const byDefinition = new Map(catalog.tools.map((t) => [serializeToolDefinition(t.definition), t]));
  const discoveryTexts = new Set(taskDiscovery.map((c) => `$ ${c.command}\n${c.output}`.trim()));
  const system: string[] = [];
  const user: string[] = [];
  let historyParts = 0;
  const tools: LiveToolSpec[] = [];
  const toolByName = new Map<string, CatalogTool>();
  const searchToolDefinitions: McpTool[] = [];
  let droppedDiscovery = 0;
  const searchLabels: readonly string[] = Object.values(SEARCH_SECTION_LABELS);
  for (const s of result.prompt.sections) {
    const definitions = s.role === 'tools' && !search ? definitionsIn(s, byDefinition) : null;
    if (search && searchLabels.includes(s.label)) {
      if (s.label === SEARCH_SECTION_LABELS.searchTool) searchToolDefinitions.push(...(s.toolList ?? []));
    } else if (s.role === 'history') {
      user.push(s.text);
      historyParts = user.length;
    } else if (definitions) {
      for (const { tool: t, examples } of definitions) {
        const name = providerToolName(t);
        if (toolByName.has(name)) continue;
        toolByName.set(name, t);
        tools.push({
          name,
          description: describe(t.definition),
          parameters: t.definition.inputSchema,
          ...(examples ? { inputExamples: examples } : {}),
        });
      }
    } else if (s.role === 'tools' && s.toolList?.length && s.toolList.every((d) => isPipelineTool(d.name))) {
      // A code pipeline's own tools (`codemode`, `execute`, `code_execution`; `search`, `search_tools`): sent as tools.
      for (const d of s.toolList) tools.push({ name: d.name, description: describe(d), parameters: d.inputSchema });
    } else if (s.role === 'tools' && discoveryTexts.has(s.text.trim())) {
      droppedDiscovery++;
    } else if (s.stable && (s.role === 'system' || s.role === 'tools')) {
      system.push(s.text);
    } else {
      user.push(s.text);
    }
  }
  if (cli) tools.push(SHELL_TOOL);
  const toolSearch = search ? liveToolSearch(catalog, search) : undefined;
  if (toolSearch) {
    // A namespaced call's name first: the provider name, set last, is the one a search answer names.
    for (const [name, t] of namespacedNames(catalog, toolSearch)) toolByName.set(name, t);
    for (const t of catalog.tools) toolByName.set(providerToolName(t), t);
  }
  return {
    system: system.join('\n\n'),
    user: user.join('\n\n'),
    history: user.slice(0, historyParts).join('\n\n'),
    afterHistory: user.slice(historyParts).join('\n\n'),
    tools,
    ...(toolSearch ? { toolSearch } : {}),
    searchToolDefinitions,
    toolByName,
    droppedDiscovery,
  };
}

/**
 * The request's tool search: every catalog tool deferred, in the namespaces the emulated OpenAI
 * search uses (openAiNamespaces: fewer than 10 functions each, described in words). A deferred
 * tool keeps its provider name (Anthropic's requests are unchanged); on the Responses API a
 * function whose name does not start with its namespace is sent under its provider name inside
 * the namespace, and a call names it back as `<namespace>__<provider name>` (namespacedNames).
 */
function liveToolSearch(catalog: Catalog, search: ToolSearchSettings): LiveToolSearch {
  const namespaces = catalog.servers.flatMap((server) => openAiNamespaces(server, catalog.tools));
  const namespaceOf = new Map(namespaces.flatMap((ns) => ns.tools.map((t) => [t.id, ns.name] as const)));
  return {
    execution: search.execution,
    ...(search.variant ? { variant: search.variant } : {}),
    deferred: catalog.tools.map((t) => ({
      name: providerToolName(t),
      description: describe(t.definition),
      parameters: t.definition.inputSchema,
      namespace: namespaceOf.get(t.id) ?? safeName(t.server),
    })),
    namespaces: namespaces.map((ns) => ({ name: ns.name, description: ns.description })),
    clientTool: { name: CLIENT_SEARCH_TOOL.name, description: describe(CLIENT_SEARCH_TOOL), parameters: CLIENT_SEARCH_TOOL.inputSchema },
  };
}

/** The name a Responses call of each deferred function comes back as (`<namespace>__<function>`), with its catalog tool (deferred is in catalog order). */
function namespacedNames(catalog: Catalog, ts: LiveToolSearch): [string, CatalogTool][] {
  return ts.deferred.map((d, i) => {
    const ns = d.namespace;
    const name = !ns || d.name.startsWith(`${ns}__`) ? d.name : qualifiedName(d.name, ns);
    return [name, catalog.tools[i]!];
  });
}

const isPipelineTool = (name: string) => CODE_TOOL_NAMES.has(name) || PIPELINE_SEARCH_TOOL_NAMES.has(name);

/**
 * The catalog tools of a section made only of tools/list definitions (one JSON per line, after
 * an optional heading line), else null. Pipelines put them in one section (B1, B2) or one
 * section per definition (B3, Tool Attention); a heading-only section stays text. A definition
 * is the catalog's, or the catalog's with `input_examples` added (tool-examples): those are kept.
 */
function definitionsIn(
  s: PromptSection,
  byDefinition: ReadonlyMap<string, CatalogTool>,
): { tool: CatalogTool; examples?: unknown[] }[] | null {
  // Sections end with a newline (src/prompt/sections.ts): blank lines are not definitions.
  const lines = s.text.split('\n').filter((l) => l.trim() !== '');
  const all = (ls: string[]) => {
    const found = ls.map((l) => definitionOf(l, byDefinition));
    return ls.length > 0 && found.every((f) => f !== null) ? (found as { tool: CatalogTool; examples?: unknown[] }[]) : null;
  };
  return all(lines) ?? all(lines.slice(1));
}

function definitionOf(line: string, byDefinition: ReadonlyMap<string, CatalogTool>): { tool: CatalogTool; examples?: unknown[] } | null {
  const tool = byDefinition.get(line);
  if (tool) return { tool };
  if (!line.includes('"input_examples"')) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isObject(parsed) || !Array.isArray(parsed.input_examples)) return null;
  const { input_examples: examples, ...definition } = parsed;
  const own = byDefinition.get(JSON.stringify(definition));
  return own ? { tool: own, examples } : null;
}

function describe(d: McpTool): string {
  return d.description ?? d.title ?? d.name;
}
