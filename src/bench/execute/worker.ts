import { parentPort } from 'node:worker_threads';
import type { BenchInputs, BenchUnit, StudyInputs } from '../types.ts';
import { registryIds, runUnit, type BenchRegistry, type RegistryIds } from '../units.ts';
import { adoptProcessSharedBytes } from '../../util/process-shared.ts';
import { inRunScope, RunScope } from '../../util/run-scope.ts';

/** Worker side of ./lanes.ts: runs the units it is sent, one at a time, on a copy of the inputs. */
/** A unit to run, with the process-shared bytes the main thread has read or written since the last (not copied). */
export type LaneRequest = { id: number; unit: BenchUnit; studyInputs?: StudyInputs; shared?: Map<string, SharedArrayBuffer> };
export type LaneResponse = { id: number; result: unknown } | { id: number; error: string };
/**
 * The first message a lane's thread gets: the inputs, what the main thread has read or built in
 * shared memory (cache segment files, rank tables: ../util/process-shared.ts), not copied, and
 * the ids of the run's registry. A message, not workerData, so that the thread can be started
 * (and load its modules) before the inputs exist.
 */
export interface LaneInit {
  init: { inputs: BenchInputs; shared: Map<string, SharedArrayBuffer>; registry: RegistryIds };
}

/**
 * Serves a bench run's units in this worker thread from `registry`: the bench's own (./lane.ts)
 * or the one a run's registry names as its source (RegistrySource). `name` says which in errors.
 */
export function serveLane(registry: BenchRegistry | undefined, name: string): void {
  if (!registry?.pipelines || !registry.studies) throw new Error(`bench worker: ${name} is not a bench registry (pipelines, studies)`);
  let inputs: BenchInputs | undefined;
  let studyInputs: StudyInputs | undefined;
  let queue: Promise<void> = Promise.resolve();
  // A lane's thread serves one run: its units share this run's caches (src/util/run-scope.ts).
  const run = new RunScope();

  // Set when the run's registry is not this thread's: every unit is answered with it.
  let refused: string | undefined;

  parentPort!.on('message', (msg: LaneInit | LaneRequest) => {
    if ('init' in msg) {
      refused = registryDifference(registryIds(registry), msg.init.registry, name);
      adoptProcessSharedBytes(msg.init.shared);
      inputs = msg.init.inputs;
      return;
    }
    const req = msg;
    if (req.studyInputs) studyInputs = req.studyInputs;
    adoptProcessSharedBytes(req.shared);
    queue = queue.then(async () => {
      try {
        if (refused) throw new Error(refused);
        if (!inputs) throw new Error('bench worker: a unit arrived before the inputs');
        const unit = req.unit;
        const result = await inRunScope(() => runUnit(inputs!, studyInputs, unit, registry), run);
        parentPort!.postMessage({ id: req.id, result } satisfies LaneResponse);
      } catch (e) {
        parentPort!.postMessage({ id: req.id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) } satisfies LaneResponse);
      }
    });
  });
}

/**
 * A registry module that builds a different registry in each thread (one chosen by an
 * environment variable, say) would run other units than the run planned: the lane refuses.
 */
export function registryDifference(here: RegistryIds, run: RegistryIds, name: string): string | undefined {
  const differences = (['pipelines', 'studies', 'suites'] as const).flatMap((key) => {
    const only = (a: string[], b: string[]) => a.filter((id) => !b.includes(id)).join(', ');
    const [extra, missing] = [only(here[key], run[key]), only(run[key], here[key])];
    const sameOrder = here[key].join() === run[key].join();
    return [
      ...(extra ? [`${key} here only: ${extra}`] : []),
      ...(missing ? [`${key} in the run's only: ${missing}`] : []),
      ...(!extra && !missing && !sameOrder ? [`${key} in another order`] : []),
    ];
  });
  if (!differences.length) return undefined;
  return `${name} builds another registry in this thread than the run's (${differences.join('; ')}); a registry module must build the same registry in every thread`;
}
