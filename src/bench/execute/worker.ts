import { parentPort } from 'node:worker_threads';
import type { BenchInputs, BenchUnit, StudyInputs } from '../types.ts';
import { runUnit, type BenchRegistry } from '../units.ts';
import { adoptProcessSharedBytes } from '../../util/process-shared.ts';
import { inRunScope, RunScope } from '../../util/run-scope.ts';
import { registryFromModules, type EntryRef } from './lane-entries.ts';

/** Worker side of ./lanes.ts: runs the units it is sent, one at a time, on a copy of the inputs. */
/** A unit to run, with the process-shared bytes the main thread has read or written since the last (not copied). */
export type LaneRequest = { id: number; unit: BenchUnit; studyInputs?: StudyInputs; shared?: Map<string, SharedArrayBuffer> };
export type LaneResponse = { id: number; result: unknown } | { id: number; error: string };
/**
 * The first message a lane's thread gets: the inputs, what the main thread has read or built in
 * shared memory (cache segment files, rank tables: ../util/process-shared.ts), not copied, and
 * where the run's entries are (./lane-entries.ts). A message, not workerData, so that the
 * thread can be started (and load its modules) before the inputs exist.
 */
export interface LaneInit {
  init: { inputs: BenchInputs; shared: Map<string, SharedArrayBuffer>; entries: EntryRef[] };
}

/**
 * Serves a bench run's units in this worker thread, on the entries found in `modules` (each
 * entry module of the run by its URL, imported by the lane's entry: ./lanes.ts).
 */
// Exported imported by the lane's entry module, which lanes.ts writes.
// ts-unused-exports:disable-next-line
export function serveLane(modules: ReadonlyMap<string, Readonly<Record<string, unknown>>>): void {
  let registry: BenchRegistry | undefined;
  let inputs: BenchInputs | undefined;
  let studyInputs: StudyInputs | undefined;
  let queue: Promise<void> = Promise.resolve();
  // A lane's thread serves one run: its units share this run's caches (src/util/run-scope.ts).
  const run = new RunScope();

  // Set when an entry of the run is not where it says: every unit is answered with it.
  let refused: string | undefined;

  parentPort!.on('message', (msg: LaneInit | LaneRequest) => {
    if ('init' in msg) {
      try {
        registry = registryFromModules(msg.init.entries, modules);
      } catch (e) {
        refused = e instanceof Error ? e.message : String(e);
      }
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
        const [given, entries] = [inputs, registry];
        if (!given || !entries) throw new Error('bench worker: a unit arrived before the inputs');
        const result = await inRunScope(() => runUnit(given, studyInputs, req.unit, entries), run);
        parentPort!.postMessage({ id: req.id, result } satisfies LaneResponse);
      } catch (e) {
        parentPort!.postMessage({ id: req.id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) } satisfies LaneResponse);
      }
    });
  });
}
