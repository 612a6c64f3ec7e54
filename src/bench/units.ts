import { performance } from 'node:perf_hooks';
import { runPipeline, type DrivenTurn, type TurnRecord } from '../measure/run-pipeline.ts';
import { summarize } from '../measure/summarize.ts';
import { PIPELINES } from '../pipelines/registry.ts';
import type { PipelineContext, PipelineEntry, PipelineSettings } from '../pipelines/types.ts';
import { createBenchEncoder } from '../retrieval/encoder.ts';
import { shareEncoder } from '../retrieval/registry.ts';
import { flushDiskScores } from '../retrieval/score-store.ts';
import { writeEvents, writeTurnRecords } from '../results/write.ts';
import type { RunFile } from '../results/manifest.ts';
import { STUDIES } from '../studies/registry.ts';
import type { PipelineResultsContext, Study, TurnWatcher } from '../studies/types.ts';
import { pipelinesGivenTo, runsOnEverySeed, taskSetsRunBy } from '../studies/common.ts';
import type { Encoder } from '../embed/types.ts';
import { SUITES, type Suite } from '../table/suites.ts';
import { tokenCounter } from '../tokens/counter.ts';
import { runHostMeasures } from '../hosts/measure.ts';
import { measuredUnderProfiles } from '../measure/host-table.ts';
import { progress } from '../util/progress.ts';
import type { BenchInputs, BenchUnit, PipelineRun, StudyInputs, StudyRun } from './types.ts';
import { cached, runCache } from '../util/run-scope.ts';
import { recordWrites } from '../util/files.ts';

/**
 * The bench's units of work, each a pure function of BenchInputs (and, for studies, of every
 * pipeline's results): the same code runs them in the main thread or in a worker thread.
 * The run's state in a thread (the encoder with its in-memory vectors, the token memo) is built
 * on first use and belongs to the run (src/util/run-scope.ts).
 */
const ENCODERS = runCache("the run's encoder by inputs, in this thread", () => new WeakMap<BenchInputs, Promise<Encoder>>());

/** The run's encoder in this thread: the one given for these inputs, else created once (lazy model, cached vectors). */
export function benchEncoder(inputs: BenchInputs, given?: Encoder): Promise<Encoder> {
  const encoders = cached(ENCODERS);
  let encoder = encoders.get(inputs);
  if (!encoder) {
    encoder = given ? Promise.resolve(given) : createBenchEncoder(inputs.encoderName, inputs.catalog, { cacheDir: inputs.cacheDir });
    // dense:<bench encoder> (and the hybrids and the learned reranker over it) reuse this thread's encoder.
    encoder = encoder.then((e) => (shareEncoder(inputs.catalog.tools, e), e));
    encoders.set(inputs, encoder);
  }
  return encoder;
}

/**
 * The pipelines and studies a run may run: the bench's registries, or one of a test's or a
 * library user's own (built with checkedPipelineRegistry and checkedStudyRegistry). A worker
 * lane is another thread, which cannot be handed functions: it imports each entry from the
 * module that defines and exports it (definePipeline, defineStudy, defineSuite:
 * ./execute/lane-entries.ts). A run with an entry defined otherwise has one lane, this thread
 * (src/bench/run.ts).
 */
export interface BenchRegistry {
  pipelines: readonly PipelineEntry[];
  studies: readonly Study[];
  /** The suites (src/table/suites.ts); absent: every built-in one. */
  suites?: readonly Suite[];
}

export const BENCH_REGISTRY: BenchRegistry = { pipelines: PIPELINES, studies: STUDIES, suites: SUITES };

/** Registry entries of the run, in registry order. */
function runEntries(inputs: Pick<BenchInputs, 'pipelineIds'>, registry: BenchRegistry): PipelineEntry[] {
  return registry.pipelines.filter((p) => inputs.pipelineIds.includes(p.id));
}

/** True for a pipeline unit run on every seed's task set (runsOnEverySeed): its records are the largest. */
export function runsEverySeed(unit: BenchUnit, registry: BenchRegistry): boolean {
  const entry = unit.kind === 'pipeline' ? registry.pipelines.find((p) => p.id === unit.id) : undefined;
  return entry !== undefined && runsOnEverySeed(entry);
}

/** True for a study that reads the pipelines' results (only such a unit needs them sent to its lane). */
export function readsPipelineResults(unit: BenchUnit, registry: BenchRegistry): boolean {
  return unit.kind === 'study' && registry.studies.find((s) => s.id === unit.id)?.readsPipelineResults === true;
}

/** Runs one unit in this thread, noting the files it writes (PipelineRun.written, StudyRun.written). */
export async function runUnit(
  inputs: BenchInputs,
  studyInputs: StudyInputs | undefined,
  unit: BenchUnit,
  registry: BenchRegistry = BENCH_REGISTRY,
): Promise<PipelineRun | StudyRun> {
  const { value, written } = await recordWrites<PipelineRun | StudyRun>(() =>
    unit.kind === 'pipeline' ? runPipelineUnit(inputs, unit.id, registry) : runStudyUnit(inputs, studyInputs, unit.id, registry),
  );
  return { ...value, written };
}

async function runPipelineUnit(inputs: BenchInputs, id: string, registry: BenchRegistry = BENCH_REGISTRY): Promise<PipelineRun> {
  const started = performance.now();
  const entry = registry.pipelines.find((p) => p.id === id);
  if (!entry) throw new Error(`bench: unknown pipeline ${id}`);
  const tokens = tokenCounter(inputs.tokenizer);
  const hosts = runHostMeasures(inputs.host);
  const compared = measuredUnderProfiles(entry);
  const pipeline = entry.create();
  const ctx: PipelineContext = {
    catalog: inputs.catalog,
    tokens,
    seed: inputs.seed,
    workDir: inputs.resultsDir,
    calibrationTasks: inputs.calibration,
    historyTasks: inputs.history,
    encoder: await benchEncoder(inputs),
    retriever: inputs.retriever,
  };
  await pipeline.prepare?.(ctx);
  const records: TurnRecord[] = [];
  const files: RunFile[] = [];
  const firstSet = inputs.taskSets[0];
  const watchers = studyWatchers(inputs, entry, registry);
  const watch = watchers.length ? (turn: DrivenTurn) => watchers.forEach(([, w]) => w.onTurn(turn)) : undefined;
  for (const { seed, tasks } of taskSetsRunBy(entry, inputs.taskSets)) {
    const bar = progress(`${pipeline.label} seed ${seed}`, tasks.length);
    const events: Record<string, unknown>[] = [];
    const seedRecords = await runPipeline(pipeline, tasks, {
      catalog: inputs.catalog,
      tokens,
      seed,
      host: hosts.host,
      compare: compared ? hosts.compare : undefined,
      onTask: () => bar.tick(),
      onEvents: (taskId, turn, evs) => events.push(...evs.map((e) => ({ taskId, turn, ...e }))),
      onTurn: seed === firstSet?.seed ? watch : undefined,
    });
    bar.stop();
    files.push(writeTurnRecords(inputs.resultsDir, pipeline.id, seed, seedRecords));
    const eventFile = writeEvents(inputs.resultsDir, pipeline.id, seed, events);
    if (eventFile) files.push(eventFile);
    records.push(...seedRecords);
  }
  flushDiskScores();
  const settings: PipelineSettings = pipeline.describe?.() ?? { details: {} };
  const summary = summarize(records, pipeline.label, settings, inputs.seed);
  const perStudy: [string, unknown][] = watchers.map(([id, w]) => [id, w.finish()]);
  for (const study of registry.studies.filter((s) => s.perPipeline && inputs.studyIds.includes(s.id)))
    perStudy.push([study.id, await study.perPipeline!({ ...resultsContextOf(inputs), entry, records, summary })]);
  const wallSeconds = (performance.now() - started) / 1000;
  return {
    manifest: {
      id: pipeline.id,
      label: pipeline.label,
      code: entry.code ?? pipeline.id,
      group: entry.group,
      baseline: entry.baseline === true,
      ...(entry.ablationOf ? { ablationOf: entry.ablationOf } : {}),
      settings,
    },
    records,
    summary,
    perStudy: Object.fromEntries(perStudy),
    files,
    wallSeconds,
    log: [
      `${pipeline.label.padEnd(34)} ${Math.round(summary.toolTokens.mean).toLocaleString('en-US').padStart(8)} tool tokens/turn  (${wallSeconds.toFixed(1)} s)`,
    ],
  };
}

/** The turn watchers of the run's studies for one pipeline (Study.watchTurns), by study id. */
function studyWatchers(inputs: BenchInputs, entry: PipelineEntry, registry: BenchRegistry): (readonly [string, TurnWatcher])[] {
  const first = inputs.taskSets[0];
  if (!first) return [];
  const tokens = tokenCounter(inputs.tokenizer);
  return registry.studies.flatMap((study) => {
    const watcher = inputs.studyIds.includes(study.id)
      ? study.watchTurns?.({ entry, tasks: first.tasks, quick: inputs.quick, tokens })
      : undefined;
    return watcher ? [[study.id, watcher] as const] : [];
  });
}

/** What a per-pipeline study step is given besides the pipeline's own results (not the other pipelines: its result is this pipeline's alone). */
function resultsContextOf(inputs: BenchInputs): Omit<PipelineResultsContext, 'entry' | 'records' | 'summary'> {
  return { catalog: inputs.catalog, taskSets: inputs.taskSets, seed: inputs.seed };
}

/** The run's options a study takes (Study.options): only those reach it, and its fingerprint. */
export function studyOptions(study: Pick<Study, 'options'>, inputs: Pick<BenchInputs, 'scalingSizes'>): { scalingSizes?: number[] } {
  return study.options?.includes('scalingSizes') && inputs.scalingSizes ? { scalingSizes: inputs.scalingSizes } : {};
}

async function runStudyUnit(
  inputs: BenchInputs,
  results: StudyInputs | undefined,
  id: string,
  registry: BenchRegistry = BENCH_REGISTRY,
): Promise<StudyRun> {
  const started = performance.now();
  const study = registry.studies.find((s) => s.id === id);
  if (!study) throw new Error(`bench: unknown study ${id}`);
  if (study.readsPipelineResults && !results) throw new Error(`bench: study ${id} ran before the pipelines' results were set`);
  const log: string[] = [];
  const hasTasks = inputs.taskSets.length > 0;
  const tables = await study.run({
    root: inputs.root,
    catalog: inputs.catalog,
    tasks: inputs.taskSets[0]?.tasks ?? [],
    taskSets: inputs.taskSets,
    calibrationTasks: inputs.calibration,
    historyTasks: inputs.history,
    pipelines: hasTasks ? pipelinesGivenTo(study, runEntries(inputs, registry)) : [],
    tokens: tokenCounter(inputs.tokenizer),
    host: runHostMeasures(inputs.host).host,
    encoder: await benchEncoder(inputs),
    retriever: inputs.retriever,
    seed: inputs.seed,
    quick: inputs.quick,
    ...studyOptions(study, inputs),
    suites: registry.suites,
    resultsDir: inputs.resultsDir,
    // A study that does not read the pipelines' results gets none, whenever it runs.
    records: new Map(study.readsPipelineResults ? results!.records : []),
    summaries: study.readsPipelineResults ? results!.summaries : [],
    perPipeline: study.readsPipelineResults
      ? new Map(results!.perStudy.flatMap(([pipeline, per]) => (Object.hasOwn(per, study.id) ? [[pipeline, per[study.id]] as const] : [])))
      : undefined,
    log: (line) => log.push(line),
  });
  flushDiskScores();
  const wallSeconds = (performance.now() - started) / 1000;
  log.push(`study ${study.id.padEnd(20)} ${wallSeconds.toFixed(1)} s`);
  return { tables, log, wallSeconds };
}
