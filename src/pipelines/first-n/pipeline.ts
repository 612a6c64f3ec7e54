import { toolDefinitionsSection } from '../../prompt/render-tools.ts';
import { definePipeline, type Pipeline, type PipelineContext, type TurnInput, type TurnResult } from '../types.ts';

/**
 * First-N: the catalog's first N tools, full definitions, on every turn. The docs' "Add a
 * baseline" example (docs/pipelines.md), kept as a real file so the example cannot drift from the
 * contract (test/pipelines/registry.test.ts registers its entry in a registry of its own and runs
 * it through the bench).
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

/** Its entry, exported: a registry lists it, and a worker lane imports it from here. */
export const firstNEntry = definePipeline(import.meta.url, {
  id: 'first-n',
  code: 'F2',
  group: 'main',
  description: "the catalog's first two full definitions on every turn",
  create: () => createFirstNPipeline(2),
});
