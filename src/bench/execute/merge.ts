import { checkMergeMatches, type ReadPart } from '../../results/shard-part.ts';
import { copyUnitRecords } from '../../results/unit-store.ts';
import { runIdentity } from '../plan/plan.ts';
import { runUnits } from './run-units.ts';
import { identityInputs } from './shard.ts';
import type { Execution } from './types.ts';

/**
 * The merge of a split run's parts: a local run whose results folder is first given the parts'
 * unit records. It checks that this checkout would make the run the parts belong to; the units
 * the shards ran are then restored from their records like any recorded unit, and the rest
 * (the studies of the pipelines' results) run here, in one lane.
 */
export function mergeExecution(parts: readonly ReadPart[]): Execution {
  return {
    command: ' merge',
    writesRun: true,
    merges: true,
    defaultResultsDir: (runDefault) => runDefault,
    execute: async (ctx) => {
      checkMergeMatches(parts[0]!, runIdentity(ctx.plan, identityInputs(ctx), parts[0]!.shard.count));
      for (const part of parts) copyUnitRecords(part.dir, part.files, ctx.resultsDir);
      // A part's records are the shards' results: a merge restores them even with --fresh.
      await runUnits({ ...ctx, fresh: false }, ctx.plan.units, (unit, result) => ctx.collected.add(unit, result));
    },
  };
}
