import { defineStudy, type Study, type StudyEmbeddings } from '../types.ts';
import { createEncoder } from '../../embed/registry.ts';
import { allFragmentTexts, FLIGHT_EVOLUTION_SCRIPT } from '../../protocols/kv-schema/traffic.ts';
import { runKvSchemaStudy } from './run.ts';
import { kvSchemaTables } from './tables.ts';
import { NO_PIPELINES } from '../common.ts';

/**
 * What the study embeds (the bench embeds it up front: src/bench/plan/study-hints.ts): the
 * traffic's fragments. Embedded in the study on a cold cache they started the embedding
 * workers (two use-lite models) beside both lanes.
 */
const kvSchemaEmbeddings = (): StudyEmbeddings => ({ texts: allFragmentTexts(FLIGHT_EVOLUTION_SCRIPT) });

/** Key-value schema tables for the bench, clustering `other` fragments with the run's encoder. */
export const kvSchemaStudy: Study = defineStudy(import.meta.url, {
  pipelinesGiven: NO_PIPELINES,
  // The traffic's fragments: embedded in the study on a cold cache they started the embedding
  // workers (two use-lite models) beside both lanes.
  scheduling: { toEmbed: kvSchemaEmbeddings, cost: 2 },
  id: 'kv-schema',
  description: 'the key-value schema protocol: request against payload tokens, break-even, and the schema self-evolution',
  readsPipelineResults: false,
  needsTasks: false,
  async run(ctx) {
    const encoder = ctx.encoder ?? (await createEncoder('use-lite'));
    return kvSchemaTables(await runKvSchemaStudy({ seed: ctx.seed, encoder }));
  },
});
