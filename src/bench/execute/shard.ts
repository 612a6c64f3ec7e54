import { join } from 'node:path';
import { snapshotFolder, writePart, type FolderSnapshot, type ShardSpec } from '../../results/shard-part.ts';
import { unitRecordFile } from '../../results/unit-store.ts';
import { inputsFingerprint } from '../inputs.ts';
import { resultSettings } from '../options.ts';
import { runIdentity } from '../plan/plan.ts';
import { unitKey } from '../plan/shards.ts';
import { runUnits } from './run-units.ts';
import type { ExecuteContext, Execution } from './types.ts';

/**
 * One shard of a split run (`--shard i/n`): a local run of the units the shard plan gives it,
 * whose records (written, or restored, as any run's) make its part folder; `merge` joins the
 * parts. A part never lands on a run's results by default.
 */
export function shardExecution(shard: ShardSpec): Execution {
  let before: FolderSnapshot | undefined;
  return {
    command: ` --shard ${shard.index}/${shard.count}`,
    writesRun: false,
    merges: false,
    defaultResultsDir: (runDefault) => join(runDefault, `shard-${shard.index}-of-${shard.count}`),
    openedFolder: (resultsDir) => (before = snapshotFolder(resultsDir)),
    execute: async (ctx: ExecuteContext) => {
      const identity = runIdentity(ctx.plan, identityInputs(ctx), shard.count);
      const mine = new Set(identity.plan[shard.index - 1]);
      const toRun = ctx.plan.units.filter((u) => mine.has(unitKey(u)));
      await runUnits(ctx, toRun, () => {});
      // A record restored rather than rewritten is the shard's too.
      const records = new Set(toRun.map(unitRecordFile));
      writePart(ctx.resultsDir, { shard, run: identity, units: identity.plan[shard.index - 1]! }, before!, (path) => records.has(path));
      ctx.opts.log(
        `shard ${shard.index}/${shard.count}: ${toRun.length} of ${ctx.plan.shardable.length} units; merge every shard's folder with \`merge\``,
      );
    },
  };
}

/** What the identity of a sharded run is computed from (the same for its shards and its merge). */
export function identityInputs(ctx: ExecuteContext) {
  const { opts, inputs } = ctx;
  return {
    pipelines: ctx.registry.pipelines.filter((p) => !opts.pipelines || opts.pipelines.includes(p.id)),
    studies: ctx.registry.studies,
    taskSets: inputs.taskSets,
    root: opts.root,
    settings: resultSettings(opts),
    inputs: inputsFingerprint(inputs),
  };
}
