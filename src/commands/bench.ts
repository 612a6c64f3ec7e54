import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MEASUREMENT_PARAMS } from '../measure/params.ts';
import type { TurnRecord } from '../measure/run-pipeline.ts';
import { RecordCompactor } from '../measure/compact-records.ts';
import { TIMINGS_FILE, writeManifest, writeTableResult, writeTimings } from '../results/write.ts';
import type { ManifestPipeline } from '../results/manifest.ts';
import { acquireRunLock } from '../results/lock.ts';
import { runFiles, startRun } from '../results/run-files.ts';
import { childDir } from '../util/paths.ts';
import { packageVersion, gitCommit } from '../util/provenance.ts';
import { createHash } from 'node:crypto';
import type { PipelineSummary } from '../measure/summarize.ts';
import { loadCatalog } from '../catalog/load.ts';
import type { Catalog } from '../catalog/types.ts';
import type { TaskSet } from '../studies/types.ts';
import { footprintTable } from '../catalog/footprint-table.ts';
import { externalRefWarnings, refSizeTable, refUses } from '../catalog/ref-table.ts';
import { mainMeasuredTable } from '../measure/main-table.ts';
import { publishedOnlyFor } from '../table/published-for.ts';
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
import { BENCH_REGISTRY, benchEncoder, type BenchRegistry } from './bench-units.ts';
import { studyEmbeddings } from './study-scheduling.ts';
import { checkIds } from './id-options.ts';
import { checkOutputDir } from './output-dir.ts';
import { missingTasksNote } from './missing-tasks-note.ts';
import { toolBreakdownTable } from '../budget/table.ts';
import { historySample, tasksForSeed, writeSyntheticCatalog, writeSyntheticTasks } from './prepare-inputs.ts';
import { DEFAULT_ENCODER, type EncoderName } from '../embed/registry.ts';
import { useLiteKernelNote } from '../embed/native-gemm.ts';
import { releaseEmbedWorkers } from '../embed/worker-pool.ts';
import { createBenchEncoder } from '../retrieval/encoder.ts';
import { prewarmEmbeddings } from '../retrieval/prewarm.ts';
import { retrievalNote } from '../retrieval/settings-note.ts';
import { DEFAULT_RETRIEVER, retrieverByName, shareEncoder, trainLearnedModels } from '../retrieval/registry.ts';
import { skipReason } from '../retrieval/types.ts';
import { InputError } from '../util/input-error.ts';
import {
  checkMergeMatches,
  clearPart,
  copyPartFiles,
  readUnitResult,
  snapshotFolder,
  writePart,
  writeUnitResult,
  type ReadPart,
  type RunIdentity,
} from '../results/shard-part.ts';
import { taskSetsRunBy } from '../studies/common.ts';
import { codeFingerprint } from '../util/provenance.ts';
import { planShards, unitKey } from './shard-plan.ts';
import type { ShardSpec } from './shard-spec.ts';
import { comparedProfiles, DEFAULT_HOST, hostProfile } from '../hosts/registry.ts';
import type { HostSpec } from '../hosts/types.ts';
import { hostProfilesTable } from '../measure/host-table.ts';
import { codeModeTable } from '../measure/code-mode-table.ts';
import { runHostMeasures } from '../hosts/measure.ts';

export interface BenchOptions {
  root: string;
  seed: number;
  seeds: number[];
  catalog?: string[];
  tasks?: string;
  tokenizer: TokenizerName;
  /** How the tool list reaches the model (src/hosts; default mcp-json). A host with a tokenizer of its own measures the whole run with it. */
  host?: Omit<HostSpec, 'tokenizer'>;
  out?: string;
  reports?: string;
  pipelines?: string[];
  /** Sentence encoder of the retrieval pipelines (default use-lite); embeddings cached in .cache/embeddings. */
  encoder?: EncoderName;
  /** Retriever of B3, Tool Attention, ADOL semantic retrieval and the ablations (default DEFAULT_RETRIEVER). */
  retriever?: string;
  quick: boolean;
  /** Catalog sizes of the scaling study (default: its sweep up to N = 1,000, the published range). */
  scalingSizes?: number[];
  /** Bounds on the user's catalog and task files (default DEFAULT_LIMITS). */
  limits?: InputLimits;
  /** Studies to run (registry ids; default all). */
  studies?: string[];
  /** Lanes running pipelines and studies at once (default $TOOLTAX_BENCH_WORKERS, else 2; 1 = serial in this thread). */
  lanes?: number;
  /** Run only this shard's units and write a part folder (`merge` joins the parts). */
  shard?: ShardSpec;
  /** Merge: the parts (read and checked) whose unit results stand in for running the units. */
  parts?: readonly ReadPart[];
  /** The pipelines and studies to choose from (default the bench's; another registry runs in one lane, in this thread). */
  registry?: BenchRegistry;
  log: (line: string) => void;
}

/** The options that decide a run's results: every shard of a run must have the same (RunIdentity.settings). */
function resultSettings(opts: BenchOptions): Record<string, unknown> {
  const { seed, seeds, catalog, tasks, tokenizer, pipelines, encoder, retriever, quick, scalingSizes, limits, studies } = opts;
  return JSON.parse(
    JSON.stringify({ seed, seeds, catalog, tasks, tokenizer, pipelines, encoder, retriever, quick, scalingSizes, limits, studies }),
  ) as Record<string, unknown>;
}

/** Tasks used by --quick (CI): the first ones of each kind. */
const QUICK_TASKS = { single: 40, multi: 30, long: 6 };

/** What a bench wrote: a run (results and reports), or a shard's part (results only: `merge` writes the reports). */
export interface BenchOutcome {
  resultsDir: string;
  reportsDir?: string;
  summaries: PipelineSummary[];
}

export async function runBench(opts: BenchOptions): Promise<BenchOutcome> {
  const registry = opts.registry ?? BENCH_REGISTRY;
  // Unknown or repeated ids stop the run before anything is written (the command line checks them too).
  checkIds('pipelines', opts.pipelines ?? [], { noun: 'pipeline', ids: registry.pipelines.map((p) => p.id) });
  checkIds('studies', opts.studies ?? [], { noun: 'study', ids: registry.studies.map((s) => s.id) });
  // The first worker lane's thread loads its modules while this one prepares the inputs. A merge
  // runs only the studies of the results, in this thread.
  const lanes = registry === BENCH_REGISTRY && !opts.parts ? (opts.lanes ?? benchLaneCount()) : 1;
  // A thread that fails to start fails the run when its lane first needs it, not before.
  const early = lanes > 1 ? awaitedLater(startLaneThread()) : undefined;
  const lanesOf = (inputs: BenchInputs) => new BenchLanes(inputs, lanes, early, registry);
  try {
    return await runBenchWith(opts, registry, lanesOf);
  } finally {
    // Ended here when the run failed before a BenchLanes took it (BenchLanes.close ends it otherwise).
    await endStarted(early);
  }
}

async function runBenchWith(
  opts: BenchOptions,
  registry: BenchRegistry,
  lanesOf: (inputs: BenchInputs) => BenchLanes,
): Promise<BenchOutcome> {
  const started = performance.now();
  const startedAt = new Date();
  const timer = new StepTimer();
  const hostSpec: HostSpec = { id: DEFAULT_HOST, ...opts.host, tokenizer: opts.tokenizer };
  const host = hostProfile(hostSpec);
  // Everything is counted as this host's model counts: openai-chat's gpt-4o with o200k_base whatever --tokenizer says.
  const tokenizer = host.tokenizer;
  if (tokenizer !== opts.tokenizer)
    opts.log(
      `host ${host.label} counts with ${tokenizer}; --tokenizer ${opts.tokenizer} applies to the profiles that use the run's tokenizer (host-profiles table)`,
    );
  const tokens = tokenCounter(tokenizer);
  const tables: Table[] = [];
  let catalog: Catalog;
  let taskSets: TaskSet[] = [];
  let tasksSource = 'none';
  let calibration: Task[] = [];
  let history: Task[] = [];

  const inputsStarted = timer.mark();
  // Explicit output folders are checked before anything is written (defaults below, once the catalog names them).
  if (opts.out) checkOutputDir(opts.out, '--out');
  if (opts.reports) checkOutputDir(opts.reports, '--reports');
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
  const defaultResults = childDir(join(opts.root, 'results'), opts.catalog ? catalog.name : '', '--catalog');
  // A shard's part never lands on a run's results by default.
  const resultsDir = resolve(
    opts.out ?? (opts.shard ? join(defaultResults, `shard-${opts.shard.index}-of-${opts.shard.count}`) : defaultResults),
  );
  const reportsDir = resolve(opts.reports ?? childDir(join(opts.root, 'reports'), opts.catalog ? catalog.name : '', '--catalog'));
  checkOutputDir(resultsDir, '--out');
  if (!opts.shard) checkOutputDir(reportsDir, '--reports');
  // One writer per folder at a time (results and reports), and nothing of the previous run left
  // beside this one: the files its manifest lists are removed, nothing else.
  const command = `bench${opts.catalog ? ` --catalog ${opts.catalog.join(',')}` : ''}${opts.shard ? ` --shard ${opts.shard.index}/${opts.shard.count}` : ''}${opts.parts ? ' merge' : ''}`;
  const lock = acquireRunLock(resultsDir, command);
  // A shard writes no reports.
  const reportsLock = opts.shard || reportsDir === resultsDir ? undefined : acquireRunLock(reportsDir, command);
  const before = startRun(resultsDir);
  clearPart(resultsDir);
  const partBefore = opts.shard ? snapshotFolder(resultsDir) : undefined;
  if (opts.quick) taskSets = taskSets.slice(0, 1).map((s) => ({ seed: s.seed, tasks: quickSubset(s.tasks) }));
  timer.recordSince('inputs (catalog, tasks)', inputsStarted);
  const entries = registry.pipelines.filter((p) => !opts.pipelines || opts.pipelines.includes(p.id));
  const studies = registry.studies.filter((s) => !opts.studies || opts.studies.includes(s.id));
  // One encoder for the whole run; everything embeddable is embedded up front in large batches.
  const cacheDir = embeddingCacheDir(join(opts.root, '.cache', 'embeddings'));
  const encoder = await createBenchEncoder(opts.encoder ?? DEFAULT_ENCODER, catalog, { cacheDir });
  // dense:<bench encoder> (and the hybrids and the learned reranker over it) reuse this warm encoder.
  shareEncoder(catalog.tools, encoder);
  // A merge runs no pipeline: nothing to embed or train up front.
  if (taskSets.length && !opts.parts) {
    const more = studyEmbeddings(
      studies.map((s) => s.id),
      {
        root: opts.root,
        catalog,
        tasks: taskSets[0]!.tasks,
        seed: opts.seed,
        quick: opts.quick,
        scalingSizes: opts.scalingSizes,
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
    // The learned models too, here in one thread, before the lanes (a no-op when they are on disk),
    // when the run ranks with one: its retriever has fitted parts, or the retrieval study ranks with all.
    const ranksLearned =
      retrieverByName(opts.retriever ?? DEFAULT_RETRIEVER).fittedOn !== undefined || studies.some((s) => s.id === 'retrieval');
    if (ranksLearned)
      await timer.time('learned models', () => trainLearnedModels([catalog.tools, ...more.moreCatalogs.map((c) => c.tools)]));
  }

  await timer.time('footprint, task tables', () => {
    tables.push(footprintTable(catalog, tokens, { host: runHostMeasures(hostSpec).host }));
    const refs = refUses(catalog);
    for (const w of externalRefWarnings(refs)) opts.log(w);
    const refTable = refSizeTable(catalog, tokens, refs);
    if (refTable) tables.push(refTable);
    if (taskSets.length) tables.push(taskMixTable(taskSets[0]!.tasks), overlapTable(taskSets[0]!.tasks, catalog));
    // A catalog without tasks: each tool's tokens, field by field, for what the run can measure.
    else tables.push(toolBreakdownTable(catalog, tokens));
  });
  if (!taskSets.length) opts.log(missingTasksNote(studies));

  const summaries: PipelineSummary[] = [];
  const recordsByPipeline = new Map<string, TurnRecord[]>();
  const ran: ManifestPipeline[] = [];
  const inputs: BenchInputs = {
    root: opts.root,
    seed: opts.seed,
    quick: opts.quick,
    scalingSizes: opts.scalingSizes,
    tokenizer,
    host: hostSpec,
    encoderName: (opts.encoder ?? DEFAULT_ENCODER) as EncoderName,
    cacheDir,
    resultsDir,
    catalog,
    taskSets,
    calibration,
    history,
    pipelineIds: entries.map((e) => e.id),
    studyIds: studies.map((s) => s.id),
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
  const pipelineUnits = taskSets.length ? entries.map((e) => ({ kind: 'pipeline' as const, id: e.id })) : [];
  const studyUnits = (reads: boolean) =>
    costliestFirst(
      studies.filter((s) => s.readsPipelineResults === reads).map((s) => ({ kind: 'study' as const, id: s.id })),
      previous,
    );
  // Preference order: pipelines, then the studies of their results (as soon as they can run), then the others.
  const units: BenchUnit[] = [...costliestFirst(pipelineUnits, previous), ...studyUnits(true), ...studyUnits(false)];
  // Shards split the units that read nothing but the inputs (in registry order, whatever the
  // previous timings); the studies of the pipelines' results run where the parts are merged.
  const shardable: BenchUnit[] = [
    ...pipelineUnits,
    ...studies.filter((s) => !s.readsPipelineResults).map((s) => ({ kind: 'study' as const, id: s.id })),
  ];
  const sharded = opts.shard ?? (opts.parts ? opts.parts[0]!.shard : undefined);
  const identity: RunIdentity | undefined = sharded && {
    settings: resultSettings(opts),
    inputs: inputsFingerprint(catalog, taskSets, calibration, history),
    code: codeFingerprint(opts.root),
    v8: process.versions.v8,
    plan: planShards(
      shardable.map((unit) => ({
        unit,
        seeds:
          unit.kind === 'pipeline'
            ? taskSetsRunBy(
                entries.find((e) => e.id === unit.id)!,
                taskSets,
              ).length
            : 1,
      })),
      sharded.count,
    ).map((list) => list.map(unitKey)),
  };
  if (opts.parts && identity) checkMergeMatches(opts.parts[0]!, identity);
  const ranElsewhere = new Set(opts.parts ? shardable.map(unitKey) : []);
  const mine = opts.shard && identity ? new Set(identity.plan[opts.shard.index - 1]) : undefined;
  const toRun = units.filter((u) => (mine ? mine.has(unitKey(u)) : !ranElsewhere.has(unitKey(u))));
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
  const onDone = (unit: BenchUnit, result: PipelineRun | StudyRun, lane: number) => {
    logUnit(unit, result, lane);
    // A shard keeps nothing: each result goes to its part folder.
    if (opts.shard) return writeUnitResult(resultsDir, unit, result);
    if (unit.kind === 'study') studyTables.set(unit.id, (result as StudyRun).tables);
    else {
      const run = result as PipelineRun;
      run.records = compactor!.compactAll(run.records);
      if (pipelineRuns.set(unit.id, run).size === pipelineUnits.length) setResults();
    }
  };
  try {
    if (opts.parts) {
      await timer.time(`shard results (${opts.parts.length} parts)`, () => {
        const partOf = new Map(opts.parts!.flatMap((p) => p.units.map((u) => [u, p] as const)));
        for (const part of opts.parts!) copyPartFiles(part, resultsDir);
        for (const unit of units.filter((u) => ranElsewhere.has(unitKey(u))))
          onDone(unit, readUnitResult(partOf.get(unitKey(unit))!, unit) as PipelineRun | StudyRun, 0);
      });
    }
    const unitCount = (kind: BenchUnit['kind']) => toRun.filter((u) => u.kind === kind).length;
    await timer.time(`pipelines (${unitCount('pipeline')}) and studies (${unitCount('study')}) on ${lanes.lanes} lanes`, () =>
      lanes.run(
        toRun,
        onDone,
        laneChooser(toRun, previous, lanes.lanes, () => pipelineRuns.size === pipelineUnits.length, registry),
      ),
    );
    if (opts.shard && identity) {
      writePart(resultsDir, { shard: opts.shard, run: identity, units: identity.plan[opts.shard.index - 1]! }, partBefore!);
      writeTimings(resultsDir, timer.report());
      lock.release();
      opts.log(
        `shard ${opts.shard.index}/${opts.shard.count}: ${toRun.length} of ${shardable.length} units; merge every shard's folder with \`merge\``,
      );
      return { resultsDir, summaries: [] };
    }
    if (taskSets.length) {
      const context = `Catalog ${catalog.name} (${catalog.tools.length} tools), tokenizer ${tokenizer}, tool list as ${host.label} sends it, ${taskSets.reduce((s, t) => s + t.tasks.length, 0)} task runs${opts.quick ? ' (--quick subset)' : ''}.`;
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
        hostProfilesTable(summaries, entries, comparedProfiles(hostSpec), context),
        codeModeTable(summaries, entries, context),
      );
    } else {
      // A catalog without tasks: what each main pipeline costs before any query.
      tables.push(
        await staticCostTable(
          catalog,
          tokens,
          entries.filter((e) => e.group === 'main'),
          { encoder, seed: opts.seed, workDir: resultsDir, host: runHostMeasures(hostSpec).host },
        ),
      );
    }
    for (const study of studies) tables.push(...studyTables.get(study.id)!);
    // The source's figures beside this run's only when this run is on the catalog they were published for.
    tables.splice(0, tables.length, ...withRecallGapNotes(tables).map((t) => publishedOnlyFor(t, catalog.name)));
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
    tokenizer,
    host: { id: host.id, label: host.label },
    encoder: { name: encoder.name, description: encoder.description },
    seeds: taskSets.map((s) => s.seed),
    quick: opts.quick,
    pipelines: ran,
    measurementParams: MEASUREMENT_PARAMS,
    tableOrder: tables.map((t) => t.id),
    files: runFiles(
      resultsDir,
      before,
      new Map([...pipelineRuns.values()].flatMap((r) => r.files.map((f) => [f.path, f.sha256] as const))),
    ),
  });
  // The renderers (vega, exceljs, resvg: ~60 MB of RSS) load only now, after the lanes are closed: loaded while
  // lane 0 waited for the worker's last units they saved ~0.6 s but raised the run's peak by ~40–60 MB.
  await timer.time('reports', () =>
    import('./report.ts').then(({ renderReports }) => renderReports(resultsDir, reportsDir, { log: opts.log })),
  );
  const timings = timer.report();
  writeTimings(resultsDir, timings);
  reportsLock?.release();
  lock.release();
  opts.log('');
  for (const line of formatTimingTable(timings)) opts.log(line);
  return { resultsDir, reportsDir, summaries };
}

/** SHA-256 of the run's inputs (RunIdentity.inputs). */
function inputsFingerprint(catalog: Catalog, taskSets: readonly TaskSet[], calibration: readonly Task[], history: readonly Task[]): string {
  return createHash('sha256').update(JSON.stringify({ catalog, taskSets, calibration, history })).digest('hex');
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
