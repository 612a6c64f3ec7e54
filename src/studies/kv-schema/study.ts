import type { Study } from '../types.ts';
import { createEncoder } from '../../embed/registry.ts';
import { allFragmentTexts, FLIGHT_EVOLUTION_SCRIPT } from '../../protocols/kv-schema/traffic.ts';
import { runKvSchemaStudy } from './run.ts';
import { kvSchemaTables } from './tables.ts';

/** Key-value schema tables for the bench, clustering `other` fragments with the run's encoder. */
export const kvSchemaStudy: Study = {
  id: 'kv-schema',
  readsPipelineResults: false,
  // The traffic's fragments, embedded up front with the rest: embedded here on a cold cache they
  // started the embedding workers (two use-lite models, ~300 MB) beside both lanes.
  toEmbed: () => ({ texts: allFragmentTexts(FLIGHT_EVOLUTION_SCRIPT) }),
  async run(ctx) {
    const encoder = ctx.encoder ?? (await createEncoder('use-lite'));
    return kvSchemaTables(await runKvSchemaStudy({ seed: ctx.seed, encoder }));
  },
};
