import type { CatalogTool } from '../catalog/types.ts';
import { isObject } from '../util/json.ts';

/**
 * The text fields of a tool that the lexical retrievers index, each weighted on its own:
 * the tool name (split on `_`, `-` and camelCase by the analyzer), the server name, the
 * description (for a real dump, its own; the synthetic catalog's authored summary is added,
 * as it is part of what the model sees in Tool Attention's pool), the input parameter names
 * and the parameter descriptions. Tags are part of `summary` when a catalog has them.
 */
export interface ToolFields {
  name: string;
  server: string;
  description: string;
  parameters: string;
  parameterDescriptions: string;
}

export type ToolField = keyof ToolFields;

export const TOOL_FIELDS: readonly ToolField[] = ['name', 'server', 'description', 'parameters', 'parameterDescriptions'];

export function toolFields(tool: CatalogTool): ToolFields {
  const props = tool.definition.inputSchema.properties;
  const entries = isObject(props) ? Object.entries(props) : [];
  const description = tool.definition.description ?? tool.definition.title ?? '';
  const summary = tool.summarySource === 'authored' ? tool.summary : '';
  return {
    name: tool.name,
    server: tool.server,
    description: [description, summary, tool.tags.join(' ')].filter(Boolean).join('\n'),
    parameters: entries.map(([name]) => name).join(' '),
    parameterDescriptions: entries
      .map(([, schema]) => (isObject(schema) && typeof schema.description === 'string' ? schema.description : ''))
      .join('\n'),
  };
}

/** One line for tables and settings: which fields with which weights. */
export function describeFields(weights: Readonly<Record<ToolField, number>>): string {
  return TOOL_FIELDS.filter((f) => weights[f] > 0)
    .map((f) => `${f}×${weights[f]}`)
    .join(' + ');
}
