import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { defineStudy, type Study } from '../types.ts';
import { runAacpStudy } from './run.ts';
import { aacpTables } from './tables.ts';
import { NO_PIPELINES } from '../common.ts';

/**
 * AACP tables for the bench. The study's fallback registry is kept per run, on purpose: it is
 * written to <results>/aacp/study-registry.json and started empty by every bench run, so its
 * counts are reproducible. A registry the user keeps in the same folder
 * (<results>/aacp/registry.json) is never touched.
 */
const STUDY_REGISTRY_FILE = 'study-registry.json';

export const aacpStudy: Study = defineStudy(import.meta.url, {
  pipelinesGiven: NO_PIPELINES,
  id: 'aacp',
  description: 'AACP packets, workflows and fallback encoder: coordination tokens against English messages',
  readsPipelineResults: false,
  needsTasks: false,
  async run(ctx) {
    const registryPath = join(ctx.resultsDir, 'aacp', STUDY_REGISTRY_FILE);
    rmSync(registryPath, { force: true });
    return aacpTables(await runAacpStudy({ seed: ctx.seed, registryPath }));
  },
});
