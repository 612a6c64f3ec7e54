import type { ToolSpec } from './spec.ts';
import type { McpTool } from './types.ts';

/**
 * The MCP tool definition for a spec, with the first `noteCount` calibration notes appended
 * to the description (the calibrator chooses how many).
 */
export function buildDefinition(spec: ToolSpec, notes: readonly string[]): McpTool {
  const description = [spec.description, ...notes].join(' ');
  return {
    name: spec.name,
    title: spec.title,
    description,
    inputSchema: {
      type: 'object',
      properties: spec.params,
      required: spec.required,
      additionalProperties: false,
    },
    outputSchema: { type: 'object', properties: spec.output },
    annotations: { ...spec.annotations },
  };
}
