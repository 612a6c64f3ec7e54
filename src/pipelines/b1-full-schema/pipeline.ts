import type { CatalogTool } from '../../catalog/types.ts';
import { toolDefinitionsSection } from '../../prompt/render-tools.ts';
import { definePipeline, type Pipeline, type PipelineContext, type TurnInput, type TurnResult } from '../types.ts';
import { TOOL_ATTENTION_PAPER } from '../tool-attention-paper.ts';

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

/** B1's registry entry (src/pipelines/registry.ts): the baseline the others are compared with. */
export const fullSchemaEntry = definePipeline(import.meta.url, {
  id: 'b1-full-schema',
  code: 'B1',
  group: 'main',
  baseline: true,
  description: 'every full tool definition on every turn (naive MCP)',
  published: true,
  reference: `${TOOL_ATTENTION_PAPER}, baseline B1`,
  create: createFullSchemaPipeline,
});
