import type { CatalogTool } from '../../catalog/types.ts';
import { toolDefinitionsSection } from '../../prompt/render-tools.ts';
import type { Pipeline, PipelineContext, TurnInput, TurnResult } from '../types.ts';

/** B1 Full-Schema: naive MCP, every full tool definition on every turn. */
export function createFullSchemaPipeline(): Pipeline {
  let tools: CatalogTool[] = [];
  let definitions = toolDefinitionsSection([]);
  return {
    id: 'b1-full-schema',
    label: 'B1 Full-Schema',
    async prepare(ctx: PipelineContext) {
      tools = ctx.catalog.tools;
      definitions = toolDefinitionsSection(tools);
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
