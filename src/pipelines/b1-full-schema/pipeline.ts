import type { CatalogTool } from '../../catalog/types.ts';
import { renderToolDefinitions } from '../../prompt/render-tools.ts';
import { section } from '../../prompt/sections.ts';
import type { Pipeline, PipelineContext, TurnInput, TurnResult } from '../types.ts';

/** B1 Full-Schema: naive MCP, every full tool definition on every turn. */
export function createFullSchemaPipeline(): Pipeline {
  let tools: CatalogTool[] = [];
  let definitions = section('tools', 'tool-definitions', '', true);
  return {
    id: 'b1-full-schema',
    label: 'B1 Full-Schema',
    async prepare(ctx: PipelineContext) {
      tools = ctx.catalog.tools;
      definitions = section('tools', 'tool-definitions', renderToolDefinitions(tools), true);
    },
    async turn({ shared }: TurnInput): Promise<TurnResult> {
      const ids = tools.map((t) => t.id);
      return {
        prompt: { sections: [shared.system, definitions, ...shared.history, shared.user] },
        exposure: { listedTools: ids, fullSchemaTools: ids, discoveryCalls: [] },
      };
    },
  };
}
