import { performance } from 'node:perf_hooks';
import type { BenchUnit } from './bench-inputs.ts';
import { RELEASE_LANE } from './bench-lanes.ts';
import { hasLargeWorkingSet, needsOwnThread, readsPipelineResults } from './bench-units.ts';

/**
 * Which unit a free lane takes next (the `choose` of BenchLanes.run). Only the schedule, and so
 * the wall time, depends on it: every unit's result is the same on any lane.
 *
 * - A study of the pipelines' results runs in this thread (lane 0), which holds them, once every
 *   pipeline is done: copying every turn record to a worker cost more than the study (ADOL: 1 → 6 s).
 * - A worker lane starts with the studies that need a thread of their own (ended after them),
 *   then the one whose working set is large, while the main lane's results are still small, then
 *   the costliest unit left, pipeline or independent study (with the previous run's times; else
 *   pipelines, then studies), so the lanes end on short units; it ends (its thread and heap with
 *   it) when only studies of the results are left.
 * - Lane 0 takes pipelines (costliest first), then the shortest independent study that can
 *   share its thread. With the previous run's unit times it takes a unit only while the worker
 *   would still have at least as much left to do as this lane with that unit and the studies of
 *   the results (which only this lane runs, after the last pipeline); otherwise it waits for the
 *   worker's unit under way to end. So both lanes end together instead of the main lane running
 *   those studies alone at the end. Without previous times it takes whatever it can.
 */
export function laneChooser(
  units: readonly BenchUnit[],
  previous: ReadonlyMap<string, number>,
  lanes: number,
  pipelinesDone: () => boolean,
): (candidates: readonly number[], lane: number, running: number) => number | typeof RELEASE_LANE | undefined {
  const seconds = (i: number) => previous.get(`${units[i]!.kind}/${units[i]!.id}`);
  const known = lanes > 1 && units.every((_, i) => seconds(i) !== undefined);
  const cost = (i: number) => seconds(i) ?? 0;
  const independent = (i: number) => units[i]!.kind === 'study' && !readsPipelineResults(units[i]!);
  const tail = units.reduce((s, _, i) => s + (units[i]!.kind === 'study' && !independent(i) ? cost(i) : 0), 0);
  // When the worker lane's current unit should end (seconds, performance.now() clock).
  let workerFreeAt = 0;
  const now = () => performance.now() / 1000;
  return (candidates, lane, running) => {
    const ready = candidates.filter((i) => units[i]!.kind === 'pipeline' || independent(i) || (lane === 0 && pipelinesDone()));
    if (lane !== 0) {
      if (!ready.length) return RELEASE_LANE;
      const costliest = known ? ready.reduce((a, b) => (cost(b) > cost(a) ? b : a)) : ready[0]!;
      const pick = ready.find((i) => needsOwnThread(units[i]!)) ?? ready.find((i) => hasLargeWorkingSet(units[i]!)) ?? costliest;
      workerFreeAt = now() + cost(pick);
      return pick;
    }
    const results = ready.find((i) => units[i]!.kind === 'study' && !independent(i));
    if (results !== undefined) return results;
    const pipeline = ready.find((i) => units[i]!.kind === 'pipeline');
    // The list has the studies longest first: the shortest one that can share this thread.
    const study = ready.filter((i) => independent(i) && !needsOwnThread(units[i]!) && !hasLargeWorkingSet(units[i]!)).at(-1);
    const pick = pipeline ?? study ?? ready.at(-1);
    // Wait only for a unit under way on the worker (with none, nothing would wake this lane).
    if (pick === undefined || !known || running === 0) return pick;
    const workerBusy = Math.max(0, workerFreeAt - now());
    const left = (kind: BenchUnit['kind']) =>
      ready.reduce((s, i) => s + (units[i]!.kind === kind && (kind === 'pipeline' || independent(i)) ? cost(i) : 0), 0);
    // Take `pick` while this lane, with it and its tail, would not have more left than the worker:
    // the worker's unit under way and every unit not yet taken except `pick`.
    if (cost(pick) + tail <= workerBusy + left('pipeline') + left('study') - cost(pick)) return pick;
    // Leaving the pipelines to the worker: a short study fills the wait if it ends before they should.
    return study !== undefined && cost(study) <= workerBusy + left('pipeline') ? study : undefined;
  };
}
