import { parentPort } from 'node:worker_threads';
import type { BenchInputs, BenchUnit, StudyInputs } from '../types.ts';
import { runPipelineUnit, runStudyUnit } from '../units.ts';
import { adoptProcessSharedBytes } from '../../util/process-shared.ts';
import { inRunScope, RunScope } from '../../util/run-scope.ts';

/** Worker side of ./bench-lanes.ts: runs the units it is sent, one at a time, on a copy of the inputs. */
/** A unit to run, with the process-shared bytes the main thread has read or written since the last (not copied). */
export type LaneRequest = { id: number; unit: BenchUnit; studyInputs?: StudyInputs; shared?: Map<string, SharedArrayBuffer> };
export type LaneResponse = { id: number; result: unknown } | { id: number; error: string };
/**
 * The first message a lane's thread gets: the inputs, and what the main thread has read or built
 * in shared memory (cache segment files, rank tables: ../util/process-shared.ts), not copied. A
 * message, not workerData, so that the thread can be started (and load its modules) before the
 * inputs exist.
 */
export interface LaneInit {
  init: { inputs: BenchInputs; shared: Map<string, SharedArrayBuffer> };
}

let inputs: BenchInputs | undefined;
let studyInputs: StudyInputs | undefined;
let queue: Promise<void> = Promise.resolve();
// A lane's thread serves one run: its units share this run's caches (src/util/run-scope.ts).
const run = new RunScope();

parentPort!.on('message', (msg: LaneInit | LaneRequest) => {
  if ('init' in msg) {
    adoptProcessSharedBytes(msg.init.shared);
    inputs = msg.init.inputs;
    return;
  }
  const req = msg;
  if (req.studyInputs) studyInputs = req.studyInputs;
  adoptProcessSharedBytes(req.shared);
  queue = queue.then(async () => {
    try {
      if (!inputs) throw new Error('bench worker: a unit arrived before the inputs');
      const unit = req.unit;
      const result = await inRunScope(
        () => (unit.kind === 'pipeline' ? runPipelineUnit(inputs!, unit.id) : runStudyUnit(inputs!, studyInputs, unit.id)),
        run,
      );
      parentPort!.postMessage({ id: req.id, result } satisfies LaneResponse);
    } catch (e) {
      parentPort!.postMessage({ id: req.id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) } satisfies LaneResponse);
    }
  });
});
