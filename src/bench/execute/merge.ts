import { checkMergeMatches, copyPartFiles, readUnitResult, type ReadPart } from '../../results/shard-part.ts';
import { runIdentity } from '../plan/plan.ts';
import { unitKey } from '../plan/shards.ts';
import type { PipelineRun, StudyRun } from '../types.ts';
import { runUnits } from './run-units.ts';
import { identityInputs } from './shard.ts';
import type { Execution } from './types.ts';

/**
 * The merge of a split run's parts: checks that this checkout would make the run the parts
 * belong to, takes the shardable units' results from the parts, and runs the rest here (the
 * studies of the pipelines' results), in one lane.
 */
export function mergeExecution(parts: readonly ReadPart[]): Execution {
  return {
    command: ' merge',
    writesRun: true,
    merges: true,
    defaultResultsDir: (runDefault) => runDefault,
    execute: async (ctx) => {
      checkMergeMatches(parts[0]!, runIdentity(ctx.plan, identityInputs(ctx), parts[0]!.shard.count));
      const ranElsewhere = new Set(ctx.plan.shardable.map(unitKey));
      const deliver = (unit: Parameters<typeof ctx.finished>[0], result: PipelineRun | StudyRun, lane: number) => {
        ctx.finished(unit, result, lane);
        ctx.collected.add(unit, result);
      };
      await ctx.timer.time(`shard results (${parts.length} parts)`, () => {
        const partOf = new Map(parts.flatMap((p) => p.units.map((u) => [u, p] as const)));
        for (const part of parts) copyPartFiles(part, ctx.resultsDir);
        for (const unit of ctx.plan.units.filter((u) => ranElsewhere.has(unitKey(u))))
          deliver(unit, readUnitResult(partOf.get(unitKey(unit))!, unit) as PipelineRun | StudyRun, 0);
      });
      await runUnits(
        ctx,
        ctx.plan.units.filter((u) => !ranElsewhere.has(unitKey(u))),
        deliver,
      );
    },
  };
}
