import { availableParallelism } from 'node:os';
import { isMainThread, workerData, type Worker } from 'node:worker_threads';
import { awaitedLater, endStarted, startTsWorker, type GeneratedEntry } from '../../util/ts-worker.ts';
import type { BenchInputs, BenchUnit, PipelineRun, StudyInputs, StudyRun } from '../types.ts';
import type { LaneInit, LaneRequest, LaneResponse } from './worker.ts';
import { processSharedBytes } from '../../util/process-shared.ts';
import { BENCH_REGISTRY, readsPipelineResults, runUnit, type BenchRegistry } from '../units.ts';
import { entryModules, type EntryRef } from './lane-entries.ts';
import { endsThreadApart, type ChooseUnit } from '../plan/schedule.ts';
import { runOnLanes, type Lane } from './lane-loop.ts';

/** Environment variable: lanes that run bench units at once (the main thread plus workers; default laneDefault(), 1 = serial). */
const BENCH_WORKERS_ENV = 'TOOLTAX_BENCH_WORKERS';
/**
 * Lanes the peak budget (docs/performance.md) is taken to hold. Two lanes' peak is measured
 * (reports/perf.md, mechanisms table), most of it the main thread's turn records; that a third
 * worker thread fits in the rest is an estimate, not a measurement (the two-core machines those
 * figures come from never start one): `npm run perf -- --against` on a machine with more cores
 * shows the peak it gives.
 */
const LANES_IN_MEMORY_BUDGET = 3;
/**
 * Old-generation cap of a worker lane (and of the main thread: --max-old-space-size in
 * scripts/tooltax.mjs). Without a cap V8 lets garbage grow the heap well past the live set before
 * collecting. The scaling study's 10,000-tool point holds ~260 MB live (heap statistics of a
 * full run; the BM25 index over 10,000 tools alone is ~40 MB), and a user's catalog may be
 * larger: 1024 keeps room (a cap of 512 saved only ~70 MB of peak RSS).
 */
const WORKER_HEAP_MB = 1024;

/** The lanes of a run by default: one per core this process may use, within the memory budget. */
function laneDefault(cores = availableParallelism()): number {
  return Math.max(1, Math.min(cores, LANES_IN_MEMORY_BUDGET));
}

export function benchLaneCount(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[BENCH_WORKERS_ENV];
  if (raw === undefined || raw === '') return laneDefault();
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 16)
    throw new Error(`${BENCH_WORKERS_ENV}: expected an integer from 1 to 16, got ${JSON.stringify(raw)}`);
  return n;
}

/**
 * Runs independent bench units on `lanes` lanes: the main thread and `lanes - 1` worker
 * threads, each pulling the next unit of the list when free. Every unit is a pure function of
 * the inputs (../units.ts), so which lane ran it does not change its result; each result
 * goes to `onDone` as it comes, and the caller files it by unit (./collect.ts), so what
 * it merges is the same for any lane count and order.
 * Put the costliest units first: the last unit to start decides the wall time.
 */
export class BenchLanes {
  /** Worker threads by lane - 1 (started: their modules are compiled first); undefined once released. */
  private workers: (Promise<Worker> | undefined)[] = [];
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (v: PipelineRun | StudyRun) => void; reject: (e: Error) => void }>();
  private studyInputs: StudyInputs | undefined;
  private readonly sentStudyInputs = new Set<Worker>();
  /** The process-shared bytes each worker thread has been given (by key). */
  private readonly sharedGiven = new WeakMap<Worker, Set<string>>();
  /** The error that ended a worker thread: a unit sent to it after that would wait forever. */
  private readonly failed = new WeakMap<Worker, Error>();

  /**
   * `early`: a lane thread started before the inputs existed (startLaneThread), used for the
   * first worker lane; ended by close() if no lane takes it. A worker thread imports the run's
   * entries from their modules (`entries`: ./lane-entries.ts).
   */
  constructor(
    private readonly inputs: BenchInputs,
    readonly lanes: number,
    private early?: Promise<LaneThread>,
    private readonly registry: BenchRegistry = BENCH_REGISTRY,
    private readonly entries: readonly EntryRef[] = [],
  ) {}

  /** What the studies of the pipelines' results read; set once the pipelines ran (studies that read none run before). */
  setStudyInputs(studyInputs: StudyInputs): void {
    this.studyInputs = studyInputs;
    this.sentStudyInputs.clear();
  }

  /**
   * Runs `units` on this thread (lane 0) and the worker threads (./lane-loop.ts), `choose`
   * picking each free lane's next unit; `onDone` gets the lane that ran the unit: 0 is this
   * thread, 1.. the workers. A worker lane released (RELEASE_LANE, or after the last unit that
   * needs a thread apart: StudyScheduling.ownThread) terminates its thread at once, handing its
   * memory back while the other lanes finish; its next unit starts a new one.
   */
  run(
    units: readonly BenchUnit[],
    onDone: (unit: BenchUnit, result: PipelineRun | StudyRun, lane: number) => void = () => {},
    choose: ChooseUnit = (candidates) => candidates[0],
  ): Promise<void> {
    const extra = Math.min(this.lanes - 1, Math.max(0, units.length - 1));
    while (this.workers.length < extra) this.workers.push(undefined);
    for (let w = 0; w < extra; w++) this.workers[w] ??= this.startWorker();
    const here: Lane<PipelineRun | StudyRun> = { run: (unit) => runUnit(this.inputs, this.studyInputs, unit, this.registry) };
    const workers = Array.from({ length: extra }, (_, w) => ({
      run: (unit: BenchUnit) => this.runThere((this.workers[w] ??= this.startWorker()), unit),
      release: () => this.release(w),
    }));
    return runOnLanes([...units], [here, ...workers], choose, onDone, (taken, i) => endsThreadApart(units, taken, i, this.registry));
  }

  /** Ends the worker threads (one that failed to start has nothing to end). */
  async close(): Promise<void> {
    await Promise.all([...this.workers, this.early].map(endStarted));
    this.workers = [];
    this.early = undefined;
  }

  /** Ends one worker thread now (its isolate's heap goes with it); a later run starts a new one. */
  private async release(worker: number): Promise<void> {
    const started = this.workers[worker];
    if (!started) return;
    this.workers[worker] = undefined;
    const w = await started;
    this.sentStudyInputs.delete(w);
    await w.terminate();
  }

  private async runThere(started: Promise<Worker>, unit: BenchUnit): Promise<PipelineRun | StudyRun> {
    const worker = await started;
    const id = this.nextId++;
    const given = this.sharedGiven.get(worker)!;
    const shared = processSharedBytes(given);
    const req: LaneRequest = { id, unit, ...(shared.size ? { shared } : {}) };
    // The pipelines' results are large (every turn record): sent only to a lane that runs a study of them.
    if (readsPipelineResults(unit, this.registry) && this.studyInputs && !this.sentStudyInputs.has(worker)) {
      req.studyInputs = this.studyInputs;
      this.sentStudyInputs.add(worker);
    }
    return new Promise((resolve, reject) => {
      const failed = this.failed.get(worker);
      if (failed) return reject(failed);
      this.waiting.set(id, { resolve, reject });
      worker.postMessage(req);
    });
  }

  /** A worker lane's thread, given the inputs; a failure to start rejects where the lane awaits it. */
  private startWorker(): Promise<Worker> {
    return awaitedLater(this.initWorker());
  }

  private async initWorker(): Promise<Worker> {
    const early = this.early;
    this.early = undefined;
    const thread = await (early ?? startLaneThread(this.entries));
    const worker = thread.worker;
    const given = new Set<string>();
    this.sharedGiven.set(worker, given);
    worker.postMessage({
      init: { inputs: this.inputs, shared: processSharedBytes(given), entries: [...this.entries] },
    } satisfies LaneInit);
    worker.on('message', (res: LaneResponse) => {
      const w = this.waiting.get(res.id);
      this.waiting.delete(res.id);
      if ('error' in res) w?.reject(new Error(`bench worker: ${res.error}`));
      else w?.resolve(res.result as PipelineRun | StudyRun);
    });
    worker.on('error', (e) => {
      this.failed.set(worker, e);
      for (const w of this.waiting.values()) w.reject(e);
      this.waiting.clear();
    });
    const failed = thread.earlyError();
    if (failed) {
      // Its lane holds only the failure from here on, so close() would not end the thread.
      await thread.terminate();
      throw failed;
    }
    return worker;
  }
}

/** A lane's worker thread and the error it raised before BenchLanes listened (its modules failed to load). */
export interface LaneThread {
  worker: Worker;
  earlyError(): Error | undefined;
  terminate(): Promise<number>;
}

/**
 * A lane's worker thread on the run's `entries`, not yet given its inputs (BenchLanes sends them).
 * Started early, it loads its modules while the main thread prepares the inputs.
 */
export async function startLaneThread(entries: readonly EntryRef[]): Promise<LaneThread> {
  // V8's own young generation: a smaller one saved memory for more time (docs/performance.md).
  const worker = await startTsWorker(laneEntry(entries), LANE_THREAD_DATA, { maxOldGenerationSizeMb: WORKER_HEAP_MB });
  let early: Error | undefined;
  worker.once('error', (e) => (early = e));
  return { worker, earlyError: () => early, terminate: () => worker.terminate() };
}

/** What a lane's thread is started with: it marks the thread as a lane (inLaneThread). */
const LANE_THREAD_DATA = { benchLane: true } as const;

/** True in a bench lane's worker thread, where a bench must not start (a run's lanes are its own). */
export function inLaneThread(): boolean {
  return !isMainThread && (workerData as Partial<typeof LANE_THREAD_DATA> | undefined)?.benchLane === true;
}

/** A lane thread's entry: imports each module of the run's entries and serves the units on what they export (./worker.ts). */
function laneEntry(entries: readonly EntryRef[]): GeneratedEntry {
  const modules = entryModules(entries);
  return {
    name: 'lane',
    text: (at) =>
      [
        `import { serveLane } from ${at(new URL('./worker.ts', import.meta.url))};`,
        ...modules.map((m, i) => `import * as m${i} from ${at(new URL(m))};`),
        `serveLane(new Map([${modules.map((m, i) => `[${JSON.stringify(m)}, m${i}]`).join(', ')}]));`,
      ].join('\n'),
  };
}
