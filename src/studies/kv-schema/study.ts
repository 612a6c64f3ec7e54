import type { Study } from '../types.ts';
import { createEncoder } from '../../embed/registry.ts';
import { runKvSchemaStudy } from './run.ts';
import { kvSchemaTables } from './tables.ts';

/** Key-value schema tables for the bench, clustering `other` fragments with the run's encoder. */
export const kvSchemaStudy: Study = {
  id: 'kv-schema',
  readsPipelineResults: false,
  async run(ctx) {
    const encoder = ctx.encoder ?? (await createEncoder('use-lite'));
    return kvSchemaTables(await runKvSchemaStudy({ seed: ctx.seed, encoder }));
  },
};
