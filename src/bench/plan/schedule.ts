import type { BenchUnit } from '../types.ts';
import { BENCH_REGISTRY, readsPipelineResults, runsEverySeed, type BenchRegistry } from '../units.ts';
import { unitScheduling } from './study-hints.ts';

/** What a chooser answers for a worker lane that will never be given another unit. */
export const RELEASE_LANE = Symbol('release lane');

/** Which unit a free lane takes (an index among the candidates' indexes), none for now, or RELEASE_LANE. */
export type ChooseUnit = (candidates: readonly number[], lane: number, running: number) => number | typeof RELEASE_LANE | undefined;

/**
 * Which unit a free lane takes next (the `choose` of ../execute/lane-loop.ts). Only the schedule, and so
 * the wall time, depends on it: every unit's result is the same on any lane.
 *
 * - A study of the pipelines' results runs in this thread (lane 0), which holds them, once every
 *   pipeline is done: copying every turn record to a worker costs more than the study itself.
 *   That tail can only start when the last pipeline ends, so both lanes take pipelines as soon as
 *   they are free, and the worker keeps short independent studies, as long in all as the tail
 *   (by the previous run's times), to run beside it.
 * - A worker lane starts with the studies that need a thread apart (ended after the last of them),
 *   then the one whose working set is large, while the main lane's results are still small, then
 *   the costliest unit left, pipeline or independent study not kept for the tail (with the
 *   previous run's times; else pipelines, then studies), so the lanes end on short units; then
 *   the kept studies. It leaves the pipelines run on every seed (the main methods, whose records
 *   are the largest and would reach lane 0 as a copy) to lane 0 while it has anything else. It
 *   ends (its thread and heap with it) when only studies of the results are left.
 * - Lane 0 takes pipelines (costliest first), then the shortest independent study not kept for
 *   the worker that can share its thread. With only kept studies left it waits for the worker's
 *   unit under way (a pipeline, after which its tail is ready), or takes one when nothing runs.
 *   (Lane 0 waiting to end together with the worker, instead, leaves it idle for the last
 *   pipelines, ablation after ablation on the worker, and the worker idle during its tail.)
 */
export function laneChooser(
  units: readonly BenchUnit[],
  previous: ReadonlyMap<string, number>,
  lanes: number,
  pipelinesDone: () => boolean,
  registry: BenchRegistry = BENCH_REGISTRY,
): ChooseUnit {
  const seconds = (i: number) => previous.get(`${units[i]!.kind}/${units[i]!.id}`);
  const known = lanes > 1 && units.every((_, i) => seconds(i) !== undefined);
  const cost = (i: number) => seconds(i) ?? 0;
  const independent = (i: number) => units[i]!.kind === 'study' && !readsPipelineResults(units[i]!, registry);
  const needsOwnThread = (i: number) => unitScheduling(units[i]!, registry).ownThread === true;
  const hasLargeWorkingSet = (i: number) => unitScheduling(units[i]!, registry).largeWorkingSet === true;
  const shareable = (i: number) => independent(i) && !needsOwnThread(i) && !hasLargeWorkingSet(i);
  const keptForTail = known ? studiesBesideTail(units, cost, independent, shareable) : new Set<number>();
  return (candidates, lane, running) => {
    const ready = candidates.filter((i) => units[i]!.kind === 'pipeline' || independent(i) || (lane === 0 && pipelinesDone()));
    if (lane !== 0) {
      if (!ready.length) return RELEASE_LANE;
      // The pipelines of every seed stay on lane 0, which keeps their records (the largest; from a
      // worker they arrive as a copy) while this lane has anything else to run.
      const light = ready.filter((i) => !runsEverySeed(units[i]!, registry));
      const pool = light.length ? light : ready;
      const open = pool.filter((i) => !keptForTail.has(i) || !pool.some((j) => units[j]!.kind === 'pipeline'));
      const costliest = (among: number[]) => (known ? among.reduce((a, b) => (cost(b) > cost(a) ? b : a)) : among[0]!);
      return ready.find(needsOwnThread) ?? ready.find(hasLargeWorkingSet) ?? costliest(open.length ? open : pool);
    }
    const results = ready.find((i) => units[i]!.kind === 'study' && !independent(i));
    if (results !== undefined) return results;
    const pipeline = ready.find((i) => units[i]!.kind === 'pipeline');
    // The list has the studies longest first: the shortest one that can share this thread.
    const study = ready.filter((i) => shareable(i) && !keptForTail.has(i)).at(-1);
    const pick = pipeline ?? study;
    if (pick !== undefined) return pick;
    // Only studies kept for the worker's end (or none) are left: a lane with nothing under way elsewhere must not end with them.
    return running === 0 ? ready.at(-1) : undefined;
  };
}

/** Shortest first, the independent studies that can share a thread, while their sum comes nearer the studies of the results' (the tail). */
function studiesBesideTail(
  units: readonly BenchUnit[],
  cost: (i: number) => number,
  independent: (i: number) => boolean,
  shareable: (i: number) => boolean,
): Set<number> {
  const tail = units.reduce((s, _, i) => s + (units[i]!.kind === 'study' && !independent(i) ? cost(i) : 0), 0);
  const kept = new Set<number>();
  let sum = 0;
  for (const i of units.flatMap((_, i) => (shareable(i) ? [i] : [])).sort((a, b) => cost(a) - cost(b) || a - b)) {
    // Only while a study brings the sum nearer the tail: one longer than that would end the worker last.
    if (sum + cost(i) / 2 > tail) break;
    kept.add(i);
    sum += cost(i);
  }
  return kept;
}

/**
 * Whether the worker lane that ran units[i] ends its thread now: the unit needs a thread apart
 * (StudyScheduling.ownThread) and no such unit is left to take. Those studies run one after
 * another on the one thread (the chooser takes them first), which ends after the last of them:
 * a fresh thread per study loaded the modules and warmed up again each time.
 */
export function endsThreadApart(
  units: readonly BenchUnit[],
  taken: readonly boolean[],
  i: number,
  registry: Pick<BenchRegistry, 'studies'>,
): boolean {
  const apart = (u: BenchUnit) => unitScheduling(u, registry).ownThread === true;
  return apart(units[i]!) && !units.some((u, j) => !taken[j] && apart(u));
}
