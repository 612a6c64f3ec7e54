import { RELEASE_LANE, type ChooseUnit } from '../plan/schedule.ts';
import type { BenchUnit } from '../types.ts';

/** One lane as the loop sees it: how it runs a unit, and how it lets its thread go (worker lanes). */
export interface Lane<R> {
  run(unit: BenchUnit): Promise<R>;
  /** Ends the lane's thread now (a worker's heap goes with it); its next unit starts a new one. */
  release?(): Promise<void>;
}

/**
 * Runs independent units on `lanes` (lane 0 first), each free lane taking the unit `choose`
 * picks among those not yet taken (their indexes in list order); when it picks none, the lane
 * waits for a running unit to finish (whose `onDone` may make others ready; `running` says how
 * many units are under way on other lanes: with none, a lane that picks nothing ends). A worker
 * lane answered RELEASE_LANE ends, its thread released at once. `releaseAfter(taken, i)` says
 * whether the worker lane that ran units[i] releases its thread now (the units that need a
 * thread apart end it after the last of them). Each result goes to `onDone` and is not kept
 * here: a pipeline's result holds every turn record as its lane sent it, and the caller keeps
 * its own (compacted) copy.
 */
export async function runOnLanes<R>(
  units: readonly BenchUnit[],
  lanes: readonly Lane<R>[],
  choose: ChooseUnit,
  onDone: (unit: BenchUnit, result: R, lane: number) => void,
  releaseAfter: (taken: readonly boolean[], i: number) => boolean,
): Promise<void> {
  const taken = new Array<boolean>(units.length).fill(false);
  let left = units.length;
  let running = 0;
  let finished: () => void = () => {};
  let someFinished = new Promise<void>((resolve) => (finished = resolve));
  const loop = async (index: number, lane: Lane<R>) => {
    for (;;) {
      // Let the other lanes' finished units be heard (and claim the next unit) before this lane takes one.
      await new Promise((resolve) => setImmediate(resolve));
      const picked = choose(
        units.flatMap((_, j) => (taken[j] ? [] : [j])),
        index,
        running,
      );
      if (picked === RELEASE_LANE && index > 0) return lane.release?.();
      const i = typeof picked === 'number' ? picked : -1;
      if (i < 0) {
        if (running === 0) return; // nothing left that can become ready (checked after the lanes end)
        await someFinished;
        continue;
      }
      taken[i] = true;
      running++;
      const result = await lane.run(units[i]!);
      if (index > 0 && releaseAfter(taken, i)) await lane.release?.();
      running--;
      left--;
      onDone(units[i]!, result, index);
      finished();
      someFinished = new Promise<void>((resolve) => (finished = resolve));
    }
  };
  await Promise.all(lanes.map((lane, index) => loop(index, lane)));
  if (left > 0) throw new Error(`bench: ${left} unit(s) never became ready`);
}
