import { toolDefinitionsSection } from '../../prompt/render-tools.ts';
import type { Pipeline, PipelineContext, TurnInput, TurnResult } from '../types.ts';

/**
 * First-N: the catalog's first N tools, full definitions, on every turn. The README's "Add a
 * baseline" example, kept as a real file so the example cannot drift from the contract
 * (test/pipelines/registry.test.ts registers it in a registry of its own and runs it through the bench).
 */
export function createFirstNPipeline(n = 10): Pipeline {
  let ids: string[] = [];
  let definitions = toolDefinitionsSection([]);
  return {
    id: 'first-n',
    label: `First-${n}`,
    async prepare(ctx: PipelineContext) {
      const tools = ctx.catalog.tools.slice(0, n);
      ids = tools.map((t) => t.id);
      definitions = toolDefinitionsSection(tools);
    },
    async turn({ shared }: TurnInput): Promise<TurnResult> {
      return {
        prompt: { sections: [shared.system, definitions, ...shared.history, shared.user] },
        exposure: { listedTools: ids, fullSchemaTools: ids, discoveryCalls: [] },
      };
    },
    describe: () => ({ details: { n } }),
  };
}
