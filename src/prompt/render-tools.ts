import { serializeToolDefinition, type CatalogTool } from '../catalog/types.ts';
import { toolListSection } from './sections.ts';
import type { PromptSection } from './types.ts';

/** Full tool definitions as a host passes them: the tools/list entries, one JSON per line. */
export function renderToolDefinitions(tools: readonly CatalogTool[], heading = 'Available tools (MCP tools/list):'): string {
  return [heading, ...tools.map((t) => serializeToolDefinition(t.definition))].join('\n');
}

/** The `tool-definitions` section of a fixed tool list (B1, B2, First-N): renderToolDefinitions' text, marked as the tool list. */
export function toolDefinitionsSection(tools: readonly CatalogTool[], stable = true): PromptSection {
  return toolListSection(
    'tool-definitions',
    renderToolDefinitions(tools),
    stable,
    tools.map((t) => t.definition),
  );
}

/** Phase-1 style summary lines: `server/name: summary`. */
export function renderToolSummaries(tools: readonly CatalogTool[], heading = 'Tools you can ask for (summaries):'): string {
  return [heading, ...tools.map((t) => `- ${t.id}: ${t.summary}`)].join('\n');
}
