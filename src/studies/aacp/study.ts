import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Study } from '../types.ts';
import { runAacpStudy } from './run.ts';
import { aacpTables } from './tables.ts';

/**
 * AACP tables for the bench. The fallback registry is written under the results directory;
 * each bench run starts it empty so that its counts are reproducible.
 */
export const aacpStudy: Study = {
  id: 'aacp',
  async run(ctx) {
    const registryPath = join(ctx.resultsDir, 'aacp', 'registry.json');
    rmSync(registryPath, { force: true });
    return aacpTables(await runAacpStudy({ seed: ctx.seed, registryPath }));
  },
};
