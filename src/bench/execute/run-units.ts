import type { BenchUnit, PipelineRun, StudyRun } from '../types.ts';
import { laneChooser } from '../plan/schedule.ts';
import type { ExecuteContext } from './types.ts';

/**
 * Runs `units` on the run's lanes, pipelines first; a study that reads the pipelines' results
 * waits for all of them, the others fill the lanes meanwhile. `onDone` gets each result.
 */
export async function runUnits(
  ctx: ExecuteContext,
  units: readonly BenchUnit[],
  onDone: (unit: BenchUnit, result: PipelineRun | StudyRun, lane: number) => void,
): Promise<void> {
  const { lanes, plan, collected, registry } = ctx;
  const count = (kind: BenchUnit['kind']) => units.filter((u) => u.kind === kind).length;
  await ctx.timer.time(`pipelines (${count('pipeline')}) and studies (${count('study')}) on ${lanes.lanes} lanes`, () =>
    lanes.run(
      units,
      onDone,
      laneChooser(units, plan.previous, lanes.lanes, () => collected.pipelinesDone, registry),
    ),
  );
}
