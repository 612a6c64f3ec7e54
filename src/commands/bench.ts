import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MEASUREMENT_PARAMS } from '../measure/params.ts';
import type { TurnRecord } from '../measure/run-pipeline.ts';
import { RecordCompactor } from '../measure/compact-records.ts';
import { TIMINGS_FILE, writeManifest, writeTableResult, writeTimings } from '../results/write.ts';
import type { ManifestPipeline } from '../results/manifest.ts';
import { acquireRunLock } from '../results/lock.ts';
import { clearRunOutputs, runFiles } from '../results/run-files.ts';
import { childDir } from '../util/paths.ts';
import { packageVersion, gitCommit } from '../util/provenance.ts';
import type { PipelineSummary } from '../measure/summarize.ts';
import { loadCatalog } from '../catalog/load.ts';
import type { Catalog } from '../catalog/types.ts';
import { PIPELINES } from '../pipelines/registry.ts';
import type { Study, TaskSet } from '../studies/types.ts';
import { footprintTable } from '../catalog/footprint-table.ts';
import { externalRefWarnings, refSizeTable, refUses } from '../catalog/ref-table.ts';
import { mainMeasuredTable } from '../measure/main-table.ts';
import { withRecallGapNotes } from '../measure/suite-gap.ts';
import { staticCostTable } from '../measure/static-cost.ts';
import type { Table } from '../table/table.ts';
import { loadTasks } from '../tasks/load.ts';
import { overlapTable } from '../tasks/overlap.ts';
import { taskMixTable } from '../tasks/stats.ts';
import type { Task } from '../tasks/types.ts';
import { tokenCounter, type TokenizerName } from '../tokens/counter.ts';
import type { InputLimits } from '../util/limits.ts';
import { formatTimingTable, StepTimer, type TimingReport } from '../util/step-timer.ts';
import { embeddingCacheDir } from '../embed/cache.ts';
import { BenchLanes, benchLaneCount, startLaneThread } from './bench-lanes.ts';
import { awaitedLater, endStarted } from '../util/ts-worker.ts';
import { laneChooser } from './bench-schedule.ts';
import { unitName, type BenchInputs, type BenchUnit, type PipelineRun, type StudyRun } from './bench-inputs.ts';
import { benchEncoder } from './bench-units.ts';
import { historySample, tasksForSeed, writeSyntheticCatalog, writeSyntheticTasks } from './prepare-inputs.ts';
import { STUDIES } from '../studies/registry.ts';
import { DEFAULT_ENCODER, type EncoderName } from '../embed/registry.ts';
import { useLiteKernelNote } from '../embed/native-gemm.ts';
import { releaseEmbedWorkers } from '../embed/worker-pool.ts';
import { createBenchEncoder } from '../retrieval/encoder.ts';
import { prewarmEmbeddings } from '../retrieval/prewarm.ts';
import { retrievalNote } from '../retrieval/settings-note.ts';
import { DEFAULT_RETRIEVER, retrieverByName, shareEncoder, trainLearnedModels } from '../retrieval/registry.ts';
import { skipReason } from '../retrieval/types.ts';
import { InputError } from '../util/input-error.ts';

export interface BenchOptions {
  root: string;
  seed: number;
  seeds: number[];
  catalog?: string[];
  tasks?: string;
  tokenizer: TokenizerName;
  out?: string;
  reports?: string;
  pipelines?: string[];
  /** Sentence encoder of the retrieval pipelines (default use-lite); embeddings cached in .cache/embeddings. */
  encoder?: EncoderName;
  /** Retriever of B3, Tool Attention, ADOL semantic retrieval and the ablations (default DEFAULT_RETRIEVER). */
  retriever?: string;
  quick: boolean;
  /** Bounds on the user's catalog and task files (default DEFAULT_LIMITS). */
  limits?: InputLimits;
  /** Studies to run (registry ids; default all). */
  studies?: string[];
  /** Lanes running pipelines and studies at once (default $TOOLTAX_BENCH_WORKERS, else 2; 1 = serial in this thread). */
  lanes?: number;
  log: (line: string) => void;
}

/** Tasks used by --quick (CI): the first ones of each kind. */
const QUICK_TASKS = { single: 40, multi: 30, long: 6 };

export async function runBench(opts: BenchOptions): Promise<{ resultsDir: string; reportsDir: string; summaries: PipelineSummary[] }> {
  // The first worker lane's thread loads its modules while this one prepares the inputs.
  const lanes = opts.lanes ?? benchLaneCount();
  // A thread that fails to start fails the run when its lane first needs it, not before.
  const early = lanes > 1 ? awaitedLater(startLaneThread()) : undefined;
  const lanesOf = (inputs: BenchInputs) => new BenchLanes(inputs, lanes, early);
  try {
    return await runBenchWith(opts, lanesOf);
  } finally {
    // Ended here when the run failed before a BenchLanes took it (BenchLanes.close ends it otherwise).
    await endStarted(early);
  }
}

async function runBenchWith(
  opts: BenchOptions,
  lanesOf: (inputs: BenchInputs) => BenchLanes,
): Promise<{ resultsDir: string; reportsDir: string; summaries: PipelineSummary[] }> {
  const started = performance.now();
  const startedAt = new Date();
  const timer = new StepTimer();
  const tokens = tokenCounter(opts.tokenizer);
  const tables: Table[] = [];
  let catalog: Catalog;
  let taskSets: TaskSet[] = [];
  let tasksSource = 'none';
  let calibration: Task[] = [];
  let history: Task[] = [];

  const inputsStarted = timer.mark();
  if (!opts.catalog) {
    const { catalog: c, dir } = writeSyntheticCatalog(opts.root, opts.seed);
    catalog = c;
    const written = writeSyntheticTasks(opts.root, opts.seed, catalog);
    calibration = written.calibration;
    history = historySample(opts.seed);
    taskSets.push({ seed: opts.seed, tasks: written.tasks });
    tasksSource = `generated (${written.dir}, seeds ${opts.seeds.join(', ')})`;
    for (const s of opts.seeds.filter((x) => x !== opts.seed)) taskSets.push({ seed: s, tasks: tasksForSeed(s) });
    opts.log(`catalog: regenerated ${dir} (seed ${opts.seed}); tasks: regenerated ${written.dir}`);
  } else {
    catalog = loadCatalog(opts.catalog, opts.limits);
    if (opts.tasks) {
      taskSets.push({ seed: opts.seed, tasks: loadTasks(opts.tasks, catalog, opts.limits) });
      tasksSource = opts.tasks;
    }
    opts.log(
      `catalog: ${opts.catalog.join(', ')} (${catalog.tools.length} tools, ${catalog.servers.length} servers)${opts.tasks ? `; tasks: ${opts.tasks}` : ''}`,
    );
  }
  checkRetrieverServes(opts.retriever ?? DEFAULT_RETRIEVER, catalog);
  const resultsDir = resolve(opts.out ?? childDir(join(opts.root, 'results'), opts.catalog ? catalog.name : '', '--catalog'));
  const reportsDir = resolve(opts.reports ?? childDir(join(opts.root, 'reports'), opts.catalog ? catalog.name : '', '--catalog'));
  // One run per folder at a time, and nothing of an earlier run left beside this one.
  const lock = acquireRunLock(resultsDir, `bench${opts.catalog ? ` --catalog ${opts.catalog.join(',')}` : ''}`);
  clearRunOutputs(resultsDir);
  if (opts.quick) taskSets = taskSets.slice(0, 1).map((s) => ({ seed: s.seed, tasks: quickSubset(s.tasks) }));
  timer.recordSince('inputs (catalog, tasks)', inputsStarted);
  const entries = PIPELINES.filter((p) => !opts.pipelines || opts.pipelines.includes(p.id));
  // One encoder for the whole run; everything embeddable is embedded up front in large batches.
  const cacheDir = embeddingCacheDir(join(opts.root, '.cache', 'embeddings'));
  const encoder = await createBenchEncoder(opts.encoder ?? DEFAULT_ENCODER, catalog, { cacheDir });
  // dense:<bench encoder> (and the hybrids and the learned reranker over it) reuse this warm encoder.
  shareEncoder(catalog.tools, encoder);
  if (taskSets.length) {
    const more = studyEmbeddings(
      STUDIES.filter((s) => !opts.studies || opts.studies.includes(s.id)),
      {
        root: opts.root,
        catalog,
        tasks: taskSets[0]!.tasks,
        seed: opts.seed,
        quick: opts.quick,
        pipelines: entries,
      },
    );
    const embedded = await timer.time('embeddings', () =>
      prewarmEmbeddings(encoder, {
        catalog,
        // History: the learned reranker's training turns (with the calibration tasks).
        taskSets: [...taskSets.map((s) => s.tasks), calibration, history],
        ...more,
        log: opts.log,
      }),
    );
    if (embedded.encoded > 0 && encoder.name === 'use-lite') opts.log(`  ${useLiteKernelNote()}`);
    // The embedding workers end now, not after their idle time: their memory is gone before the lanes start.
    await releaseEmbedWorkers();
    // The learned models too, here in one thread, before the lanes (a no-op when they are on disk).
    await timer.time('learned models', () => trainLearnedModels([catalog.tools, ...more.moreCatalogs.map((c) => c.tools)]));
  }

  await timer.time('footprint, task tables', () => {
    tables.push(footprintTable(catalog, tokens));
    const refs = refUses(catalog);
    for (const w of externalRefWarnings(refs)) opts.log(w);
    const refTable = refSizeTable(catalog, tokens, refs);
    if (refTable) tables.push(refTable);
    if (taskSets.length) tables.push(taskMixTable(taskSets[0]!.tasks), overlapTable(taskSets[0]!.tasks, catalog));
  });

  const summaries: PipelineSummary[] = [];
  const recordsByPipeline = new Map<string, TurnRecord[]>();
  const ran: ManifestPipeline[] = [];
  const inputs: BenchInputs = {
    root: opts.root,
    seed: opts.seed,
    quick: opts.quick,
    tokenizer: opts.tokenizer,
    encoderName: (opts.encoder ?? DEFAULT_ENCODER) as EncoderName,
    cacheDir,
    resultsDir,
    catalog,
    taskSets,
    calibration,
    history,
    pipelineIds: entries.map((e) => e.id),
    studyIds: STUDIES.filter((s) => !opts.studies || opts.studies.includes(s.id)).map((s) => s.id),
    retriever: opts.retriever,
  };
  await benchEncoder(inputs, encoder);
  const logUnit = (unit: BenchUnit, r: { log: string[]; wallSeconds: number }, lane: number) => {
    r.log.forEach((l) => opts.log(l));
    timer.record(`  ${unitName(unit)}${lane ? ` (lane ${lane})` : ''}`, r.wallSeconds, undefined, { ...unit, lane });
  };
  // Pipelines and studies run as independent units on parallel lanes, pipelines first; a study
  // that reads the pipelines' results waits for all of them, the others fill the lanes meanwhile.
  // Results are merged in registry order.
  const lanes = lanesOf(inputs);
  const previous = previousUnitSeconds(resultsDir);
  const studies = STUDIES.filter((s) => !opts.studies || opts.studies.includes(s.id));
  const pipelineUnits = taskSets.length ? entries.map((e) => ({ kind: 'pipeline' as const, id: e.id })) : [];
  const studyUnits = (reads: boolean) =>
    costliestFirst(
      studies.filter((s) => s.readsPipelineResults === reads).map((s) => ({ kind: 'study' as const, id: s.id })),
      previous,
    );
  // Preference order: pipelines, then the studies of their results (as soon as they can run), then the others.
  const units: BenchUnit[] = [...costliestFirst(pipelineUnits, previous), ...studyUnits(true), ...studyUnits(false)];
  const pipelineRuns = new Map<string, PipelineRun>();
  // Records from a worker lane arrive with a copy of every string: shared again across the run's
  // records. The compactor's own maps (~12 MB) are let go once every pipeline's records are in.
  let compactor: RecordCompactor | undefined = new RecordCompactor();
  const studyTables = new Map<string, Table[]>();
  const setResults = () => {
    for (const entry of taskSets.length ? entries : []) {
      const r = pipelineRuns.get(entry.id)!;
      ran.push(r.manifest);
      recordsByPipeline.set(entry.id, r.records);
      summaries.push(r.summary);
    }
    lanes.setStudyInputs({
      records: [...recordsByPipeline],
      summaries,
      perStudy: (taskSets.length ? entries : []).map((e) => [e.id, pipelineRuns.get(e.id)!.perStudy]),
    });
    compactor = undefined;
  };
  if (pipelineUnits.length === 0) setResults();
  try {
    await timer.time(`pipelines (${pipelineUnits.length}) and studies (${studies.length}) on ${lanes.lanes} lanes`, () =>
      lanes.run(
        units,
        (unit, result, lane) => {
          logUnit(unit, result, lane);
          if (unit.kind === 'study') studyTables.set(unit.id, (result as StudyRun).tables);
          else {
            const run = result as PipelineRun;
            run.records = compactor!.compactAll(run.records);
            if (pipelineRuns.set(unit.id, run).size === pipelineUnits.length) setResults();
          }
        },
        laneChooser(units, previous, lanes.lanes, () => pipelineRuns.size === pipelineUnits.length),
      ),
    );
    if (taskSets.length) {
      const context = `Catalog ${catalog.name} (${catalog.tools.length} tools), tokenizer ${opts.tokenizer}, ${taskSets.reduce((s, t) => s + t.tasks.length, 0)} task runs${opts.quick ? ' (--quick subset)' : ''}.`;
      const main = new Set(entries.filter((e) => e.group === 'main').map((e) => e.id));
      const retrieval = retrievalNote(
        new Map(ran.filter((p) => main.has(p.id)).map((p) => [p.id, p.settings])),
        new Map(summaries.map((s) => [s.pipeline, s.label])),
      );
      tables.push(
        mainMeasuredTable(
          summaries.filter((s) => main.has(s.pipeline)),
          retrieval ? `${context} ${retrieval}` : context,
        ),
      );
    } else {
      // A catalog without tasks: what each main pipeline costs before any query.
      tables.push(
        await staticCostTable(
          catalog,
          tokens,
          entries.filter((e) => e.group === 'main'),
          { encoder, seed: opts.seed, workDir: resultsDir },
        ),
      );
    }
    for (const study of studies) tables.push(...studyTables.get(study.id)!);
    tables.splice(0, tables.length, ...withRecallGapNotes(tables));
  } finally {
    await lanes.close();
  }

  await timer.time('write results', () => {
    for (const t of tables) writeTableResult(resultsDir, t);
  });
  const finished = performance.now();
  writeManifest(resultsDir, {
    tool: 'tooltax',
    version: packageVersion(opts.root),
    commit: gitCommit(opts.root),
    startedAt: startedAt.toISOString(),
    finishedAt: new Date(startedAt.getTime() + (finished - started)).toISOString(),
    seconds: (finished - started) / 1000,
    catalog: { name: catalog.name, source: catalog.source, tools: catalog.tools.length, servers: catalog.servers },
    tasks: { source: tasksSource, perSeed: taskSets.map((t) => ({ seed: t.seed, tasks: t.tasks.length })) },
    tokenizer: opts.tokenizer,
    encoder: { name: encoder.name, description: encoder.description },
    seeds: taskSets.map((s) => s.seed),
    quick: opts.quick,
    pipelines: ran,
    measurementParams: MEASUREMENT_PARAMS,
    tableOrder: tables.map((t) => t.id),
    files: runFiles(resultsDir, new Map([...pipelineRuns.values()].flatMap((r) => r.files.map((f) => [f.path, f.sha256] as const)))),
  });
  // The renderers (vega, exceljs, resvg: ~60 MB of RSS) load only now, after the lanes are closed: loaded while
  // lane 0 waited for the worker's last units they saved ~0.6 s but raised the run's peak by ~40–60 MB.
  await timer.time('reports', () =>
    import('./report.ts').then(({ renderReports }) => renderReports(resultsDir, reportsDir, { log: opts.log })),
  );
  const timings = timer.report();
  writeTimings(resultsDir, timings);
  lock.release();
  opts.log('');
  for (const line of formatTimingTable(timings)) opts.log(line);
  return { resultsDir, reportsDir, summaries };
}

/**
 * The pipelines' retriever must rank this catalog: unlike a comparison row of the retrieval
 * tables (skipped with a note), it is what B3, Tool Attention and ADOL run on, and the user chose it.
 */
function checkRetrieverServes(name: string, catalog: Catalog): void {
  const retriever = retrieverByName(name);
  if (skipReason(retriever, catalog.tools.length))
    throw new InputError(catalog.source, '', `at least ${retriever.minTools} tools for --retriever ${name}`, `${catalog.tools.length}`);
}

/** What the studies will embed (Study.toEmbed): the catalogs and task sets to add to the up-front embedding pass. */
function studyEmbeddings(
  studies: readonly Study[],
  ctx: Parameters<NonNullable<Study['toEmbed']>>[0],
): { moreCatalogs: Catalog[]; moreTaskSets: Task[][]; moreTexts: string[] } {
  const wanted = studies.map((s) => s.toEmbed?.(ctx) ?? {});
  return {
    moreCatalogs: wanted.flatMap((w) => w.catalogs ?? []),
    moreTaskSets: wanted.flatMap((w) => w.taskSets ?? []),
    moreTexts: wanted.flatMap((w) => w.texts ?? []),
  };
}

/** Each unit's wall seconds in the previous run's timings.json, when there is one. */
function previousUnitSeconds(resultsDir: string): Map<string, number> {
  try {
    const report = JSON.parse(readFileSync(join(resultsDir, TIMINGS_FILE), 'utf8')) as TimingReport;
    return new Map(report.steps.filter((s) => s.unit).map((s) => [`${s.unit!.kind}/${s.unit!.id}`, s.wallSeconds]));
  } catch {
    return new Map();
  }
}

/** Units ordered by their previous wall time, longest first (ties and unknown units keep registry order): only the schedule changes, never a result. */
function costliestFirst<U extends BenchUnit>(units: U[], previous: ReadonlyMap<string, number>): U[] {
  const cost = (u: U) => previous.get(`${u.kind}/${u.id}`) ?? 0;
  return units
    .map((u, i) => ({ u, i }))
    .sort((a, b) => cost(b.u) - cost(a.u) || a.i - b.i)
    .map((x) => x.u);
}

function quickSubset(tasks: Task[]): Task[] {
  return (['single', 'multi', 'long'] as const).flatMap((k) => tasks.filter((t) => t.kind === k).slice(0, QUICK_TASKS[k]));
}
