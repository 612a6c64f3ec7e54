import { restoreUnit, saveUnit } from '../../results/unit-store.ts';
import { unitName, type BenchUnit, type PipelineRun, type StudyRun } from '../types.ts';
import { laneChooser } from '../plan/schedule.ts';
import { unitKey } from '../plan/shards.ts';
import { readsPipelineResults } from '../units.ts';
import type { ExecuteContext } from './types.ts';

/**
 * Runs `units` on the run's lanes, pipelines first; a study that reads the pipelines' results
 * waits for all of them, the others fill the lanes meanwhile. A unit recorded in the results
 * folder with its fingerprint (src/results/unit-store.ts) is restored instead, unless the run
 * is `--fresh`; a unit that runs is recorded as soon as it ends, so a killed run resumes from
 * there. `onDone` gets each result, restored or run, in the order they come.
 */
export async function runUnits(
  ctx: ExecuteContext,
  units: readonly BenchUnit[],
  onDone: (unit: BenchUnit, result: PipelineRun | StudyRun) => void,
): Promise<void> {
  const { lanes, plan, collected, registry, fingerprints, resultsDir } = ctx;
  const toRun: BenchUnit[] = [];
  const reused: string[] = [];
  await ctx.timer.time('reused units', () => {
    const restore = (unit: BenchUnit, withRecords: boolean) => {
      const fingerprint = fingerprints.get(unitKey(unit));
      const restored = ctx.fresh || !fingerprint ? undefined : restoreUnit(resultsDir, unit, fingerprint, withRecords);
      if (!restored) return void toRun.push(unit);
      const result = restored.result as PipelineRun | StudyRun;
      // A pipeline's records are read back only for a study of them that runs (none: an empty list).
      if (unit.kind === 'pipeline') (result as PipelineRun).records = (restored.bulk as PipelineRun['records'] | undefined) ?? [];
      collected.restoredFiles.push(...restored.files);
      reused.push(unitName(unit));
      ctx.timer.record(`  ${unitName(unit)} (reused)`, 0, undefined, { ...unit, lane: 0, reused: true, ranSeconds: result.wallSeconds });
      onDone(unit, result);
    };
    // The studies first: whether one of the pipelines' results runs decides whether their records are read.
    for (const unit of units) if (unit.kind === 'study') restore(unit, false);
    const recordsRead = toRun.some((u) => readsPipelineResults(u, registry));
    for (const unit of units) if (unit.kind === 'pipeline') restore(unit, recordsRead);
  });
  // In the plan's order, whichever order they were restored in.
  const inPlan = (names: string[]) => units.map(unitName).filter((n) => names.includes(n));
  ctx.opts.log(unitsLine('reused', inPlan(reused), units.length, ctx.fresh ? ' (--fresh)' : ''));
  ctx.opts.log(unitsLine('running', inPlan(toRun.map(unitName)), units.length, ''));
  if (!toRun.length) return;
  const count = (kind: BenchUnit['kind']) => toRun.filter((u) => u.kind === kind).length;
  const done = (unit: BenchUnit, result: PipelineRun | StudyRun, lane: number) => {
    ctx.finished(unit, result, lane);
    const { written, ...kept } = result;
    const fingerprint = fingerprints.get(unitKey(unit));
    if (fingerprint) saveUnit(resultsDir, unit, fingerprint, savedParts(unit, kept), written ?? []);
    onDone(unit, kept);
  };
  await ctx.timer.time(`pipelines (${count('pipeline')}) and studies (${count('study')}) on ${lanes.lanes} lanes`, () =>
    lanes.run(
      toRun,
      done,
      laneChooser(toRun, plan.previous, lanes.lanes, () => collected.pipelinesDone, registry),
    ),
  );
}

/** A pipeline's records saved apart from the rest of its result, so that a run without a study of them never reads them. */
function savedParts(unit: BenchUnit, result: PipelineRun | StudyRun): { result: unknown; bulk?: unknown } {
  if (unit.kind !== 'pipeline') return { result };
  const { records, ...rest } = result as PipelineRun;
  return { result: rest, bulk: records };
}

/** `reused 3 of 5 units: pipeline a, …` (the names of up to ten). */
function unitsLine(what: string, names: readonly string[], of: number, note: string): string {
  const shown = names.slice(0, 10).join(', ') + (names.length > 10 ? `, and ${names.length - 10} more` : '');
  return `${what} ${names.length} of ${of} units${note}${names.length ? `: ${shown}` : ''}`;
}
