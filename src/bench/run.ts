import { join } from 'node:path';
import { endStarted, awaitedLater } from '../util/ts-worker.ts';
import { writeTimings } from '../results/write.ts';
import { RESULTS_DIR } from '../results/partial-run.ts';
import { checkIds } from '../util/ids.ts';
import { inRunScope } from '../util/run-scope.ts';
import { formatTimingTable, StepTimer } from '../util/step-timer.ts';
import { RunClock } from './clock.ts';
import { Collected } from './execute/collect.ts';
import { BenchLanes, benchLaneCount, inLaneThread, startLaneThread } from './execute/lanes.ts';
import { executionFor } from './execute/strategies.ts';
import type { Execution } from './execute/types.ts';
import { checkOutputOptions, openFolders } from './folders.ts';
import { readInputs, unitInputs } from './inputs.ts';
import { missingTasksNote } from './missing-tasks-note.ts';
import type { BenchOptions, BenchOutcome } from './options.ts';
import { unitFingerprints } from './plan/fingerprint.ts';
import { planRun } from './plan/plan.ts';
import { renderRun } from './render.ts';
import { inputTables, resultTables } from './tables.ts';
import { unitName, type BenchUnit } from './types.ts';
import { BENCH_REGISTRY, benchEncoder, type BenchRegistry } from './units.ts';
import { laneEntries } from './execute/lane-entries.ts';
import { benchCacheDir, warmUp } from './warm-up.ts';
import { hasUnit } from '../results/unit-store.ts';
import { unitKey } from './plan/shards.ts';
import { runSettings, writeRun } from './write.ts';

export type { BenchOptions, BenchOutcome } from './options.ts';

/**
 * One bench run, in the order data flows through it: inputs → warm-up → plan → execute → write
 * → render. A local run, one shard and a merge differ only in the execute phase (./execute/).
 * The run owns its caches (src/util/run-scope.ts): a second run in the same process starts with none.
 */
export function runBench(opts: BenchOptions): Promise<BenchOutcome> {
  // A module of the run's entries that runs the bench when imported would run it again in every lane.
  if (inLaneThread())
    return Promise.reject(
      new Error(
        "runBench was called in a bench lane's thread: a module that defines an entry of the run runs the bench when it is imported; define entries in modules that only define them",
      ),
    );
  return inRunScope(() => runBenchInScope(opts));
}

async function runBenchInScope(opts: BenchOptions): Promise<BenchOutcome> {
  const registry = opts.registry ?? BENCH_REGISTRY;
  // Unknown or repeated ids stop the run before anything is written (the command line checks them too).
  checkIds('pipelines', opts.pipelines ?? [], { noun: 'pipeline', ids: registry.pipelines.map((p) => p.id) });
  checkIds('studies', opts.studies ?? [], { noun: 'study', ids: registry.studies.map((s) => s.id) });
  const execution = executionFor(opts);
  // A worker thread imports the run's entries from their modules; a merge runs only the studies of the results, in this thread.
  const wanted = execution.merges ? 1 : (opts.lanes ?? benchLaneCount());
  const onLanes = laneEntries(registry, opts.pipelines, opts.studies);
  const entries = 'refs' in onLanes ? onLanes.refs : [];
  const lanes = 'refs' in onLanes ? wanted : 1;
  if ('unloadable' in onLanes && wanted > 1)
    opts.log(
      `one lane, not ${wanted}: ${onLanes.unloadable}, so the run stays in this thread (a worker lane imports each entry from its module: docs/extending.md#a-registry-of-your-own)`,
    );
  // The first worker lane's thread loads its modules while this one prepares the inputs; a thread
  // that fails to start fails the run when its lane first needs it, not before.
  const early = lanes > 1 ? awaitedLater(startLaneThread(entries)) : undefined;
  try {
    return await runPhases(opts, registry, execution, (inputs) => new BenchLanes(inputs, lanes, early, registry, entries));
  } finally {
    // Ended here when the run failed before a BenchLanes took it (BenchLanes.close ends it otherwise).
    await endStarted(early);
  }
}

async function runPhases(
  opts: BenchOptions,
  registry: BenchRegistry,
  execution: Execution,
  lanesOf: (inputs: ReturnType<typeof unitInputs>) => BenchLanes,
): Promise<BenchOutcome> {
  const clock = new RunClock();
  const timer = new StepTimer();
  const inputsStarted = timer.mark();
  checkOutputOptions(opts);
  const inputs = readInputs(opts);
  const folders = openFolders(opts, inputs.catalog, execution);
  const { resultsDir, reportsDir } = folders;
  timer.recordSince('inputs (catalog, tasks)', inputsStarted);
  const pipelines = registry.pipelines.filter((p) => !opts.pipelines || opts.pipelines.includes(p.id));
  const studies = registry.studies.filter((s) => !opts.studies || opts.studies.includes(s.id));
  const units = { pipelines, studies, suites: registry.suites };
  const plan = planRun({ pipelines, studies, taskSets: inputs.taskSets }, [resultsDir, join(opts.root, RESULTS_DIR)]);
  const forUnits = unitInputs(opts, inputs, { cacheDir: benchCacheDir(opts.root), resultsDir, pipelines, studies });
  const fingerprints = await timer.time('fingerprints', () =>
    unitFingerprints({ root: opts.root, registry, inputs: forUnits, pipelines, studies }, plan.units),
  );
  // Nothing to embed or train when every unit will be restored from its record.
  const runsAny = opts.fresh === true || plan.units.some((u) => !hasUnit(resultsDir, u, fingerprints.get(unitKey(u)) ?? ''));
  const { encoder } = await warmUp(opts, inputs, { ...units, embeds: !execution.merges && runsAny }, timer);
  const before = await timer.time('footprint, task tables', () => inputTables(inputs, opts.log));
  if (!inputs.taskSets.length) opts.log(missingTasksNote(studies));
  await benchEncoder(forUnits, encoder);
  const lanes = lanesOf(forUnits);
  const collected = new Collected(
    plan.pipelineUnits.map((u) => u.id),
    (studyInputs) => lanes.setStudyInputs(studyInputs),
  );
  const finished = (unit: BenchUnit, r: { log: string[]; wallSeconds: number }, lane: number) => {
    r.log.forEach((l) => opts.log(l));
    timer.record(`  ${unitName(unit)}${lane ? ` (lane ${lane})` : ''}`, r.wallSeconds, undefined, { ...unit, lane });
  };
  let tables;
  try {
    const fresh = opts.fresh === true;
    await execution.execute({ opts, registry, inputs, plan, lanes, resultsDir, timer, collected, fingerprints, fresh, finished });
    if (!execution.writesRun) {
      writeTimings(resultsDir, timer.report());
      folders.release();
      return { resultsDir, summaries: [] };
    }
    tables = await resultTables(inputs, { ...units, quick: opts.quick, seed: opts.seed, resultsDir, encoder }, collected, before);
  } finally {
    await lanes.close();
  }

  await writeRun(inputs, tables, collected, { ...runSettings(opts, studies), encoder, resultsDir, before: folders.before, clock }, timer);
  await timer.time('reports', () => renderRun(resultsDir, reportsDir, opts.log));
  const timings = timer.report();
  writeTimings(resultsDir, timings);
  folders.release();
  opts.log('');
  for (const line of formatTimingTable(timings)) opts.log(line);
  return { resultsDir, reportsDir, summaries: collected.summaries };
}
