import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MEASUREMENT_PARAMS } from '../measure/params.ts';
import { runPipeline, type TurnRecord } from '../measure/run-pipeline.ts';
import { writeEvents, writeManifest, writeTableResult, writeTurnRecords } from '../results/write.ts';
import type { ManifestPipeline } from '../results/manifest.ts';
import { packageVersion, gitCommit } from '../util/provenance.ts';
import { summarize, type PipelineSummary } from '../measure/summarize.ts';
import { loadCatalog } from '../catalog/load.ts';
import type { Catalog } from '../catalog/types.ts';
import { PIPELINES } from '../pipelines/registry.ts';
import type { PipelineContext, PipelineSettings } from '../pipelines/types.ts';
import type { TaskSet } from '../studies/types.ts';
import { footprintTable } from '../catalog/footprint-table.ts';
import { mainMeasuredTable } from '../measure/main-table.ts';
import { staticCostTable } from '../measure/static-cost.ts';
import type { Table } from '../table/table.ts';
import { loadTasks } from '../tasks/load.ts';
import { overlapTable } from '../tasks/overlap.ts';
import { taskMixTable } from '../tasks/stats.ts';
import type { Task } from '../tasks/types.ts';
import { tokenCounter, type TokenizerName } from '../tokens/counter.ts';
import { progress } from '../util/progress.ts';
import { renderReports } from './report.ts';
import { historySample, tasksForSeed, writeSyntheticCatalog, writeSyntheticTasks } from './prepare-inputs.ts';
import { STUDIES } from '../studies/registry.ts';
import { DEFAULT_ENCODER, type EncoderName } from '../embed/registry.ts';
import { createBenchEncoder } from '../retrieval/encoder.ts';
import { prewarmEmbeddings } from '../retrieval/prewarm.ts';
import { retrievalNote } from '../retrieval/settings-note.ts';
import { shareEncoder } from '../retrieval/registry.ts';

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
  log: (line: string) => void;
}

/** Tasks used by --quick (CI): the first ones of each kind. */
const QUICK_TASKS = { single: 40, multi: 30, long: 6 };

export async function runBench(opts: BenchOptions): Promise<{ resultsDir: string; reportsDir: string; summaries: PipelineSummary[] }> {
  const started = performance.now();
  const startedAt = new Date();
  const tokens = tokenCounter(opts.tokenizer);
  const tables: Table[] = [];
  let catalog: Catalog;
  let taskSets: TaskSet[] = [];
  let tasksSource = 'none';
  let calibration: Task[] = [];
  let history: Task[] = [];

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
    catalog = loadCatalog(opts.catalog);
    if (opts.tasks) {
      taskSets.push({ seed: opts.seed, tasks: loadTasks(opts.tasks, catalog) });
      tasksSource = opts.tasks;
    }
    opts.log(
      `catalog: ${opts.catalog.join(', ')} (${catalog.tools.length} tools, ${catalog.servers.length} servers)${opts.tasks ? `; tasks: ${opts.tasks}` : ''}`,
    );
  }
  if (opts.quick) taskSets = taskSets.slice(0, 1).map((s) => ({ seed: s.seed, tasks: quickSubset(s.tasks) }));
  // One encoder for the whole run; everything embeddable is embedded up front in large batches.
  const encoder = await createBenchEncoder(opts.encoder ?? DEFAULT_ENCODER, catalog, { cacheDir: join(opts.root, '.cache', 'embeddings') });
  // dense:<bench encoder> (and the hybrids and the learned reranker over it) reuse this warm encoder.
  shareEncoder(catalog.tools, encoder);
  if (taskSets.length)
    await prewarmEmbeddings(encoder, { catalog, taskSets: [...taskSets.map((s) => s.tasks), calibration], log: opts.log });

  const resultsDir = opts.out ?? join(opts.root, 'results', opts.catalog ? catalog.name : '');
  const reportsDir = opts.reports ?? join(opts.root, 'reports', opts.catalog ? catalog.name : '');
  tables.push(footprintTable(catalog, tokens));
  if (taskSets.length) tables.push(taskMixTable(taskSets[0]!.tasks), overlapTable(taskSets[0]!.tasks, catalog));

  const summaries: PipelineSummary[] = [];
  const recordsByPipeline = new Map<string, TurnRecord[]>();
  const entries = PIPELINES.filter((p) => !opts.pipelines || opts.pipelines.includes(p.id));
  const ran: ManifestPipeline[] = [];
  if (taskSets.length) {
    for (const entry of entries) {
      const pipelineStarted = performance.now();
      const pipeline = entry.create();
      const ctx: PipelineContext = {
        catalog,
        tokens,
        seed: opts.seed,
        workDir: resultsDir,
        calibrationTasks: calibration,
        historyTasks: history,
        encoder,
        retriever: opts.retriever,
      };
      await pipeline.prepare?.(ctx);
      const all: TurnRecord[] = [];
      // Main methods run on every seed's task set; ablation and ADOL variants on the first.
      for (const { seed, tasks } of entry.group === 'main' ? taskSets : taskSets.slice(0, 1)) {
        const bar = progress(`${pipeline.label} seed ${seed}`, tasks.length);
        const events: Record<string, unknown>[] = [];
        const records = await runPipeline(pipeline, tasks, {
          catalog,
          tokens,
          seed,
          onTask: () => bar.tick(),
          onEvents: (taskId, turn, evs) => events.push(...evs.map((e) => ({ taskId, turn, ...e }))),
        });
        bar.stop();
        writeTurnRecords(resultsDir, pipeline.id, seed, records);
        writeEvents(resultsDir, pipeline.id, seed, events);
        all.push(...records);
      }
      const settings: PipelineSettings = pipeline.describe?.() ?? { details: {} };
      ran.push({
        id: pipeline.id,
        label: pipeline.label,
        code: entry.code ?? pipeline.id,
        group: entry.group,
        baseline: entry.baseline === true,
        settings,
      });
      recordsByPipeline.set(pipeline.id, all);
      summaries.push(summarize(all, pipeline.label, settings, opts.seed));
      opts.log(
        `${pipeline.label.padEnd(34)} ${Math.round(summaries.at(-1)!.toolTokens.mean).toLocaleString('en-US').padStart(8)} tool tokens/turn  (${((performance.now() - pipelineStarted) / 1000).toFixed(1)} s)`,
      );
    }
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

  for (const study of STUDIES) {
    const studyStarted = performance.now();
    const studyTables = await study.run({
      root: opts.root,
      catalog,
      tasks: taskSets[0]?.tasks ?? [],
      taskSets,
      calibrationTasks: calibration,
      historyTasks: history,
      pipelines: taskSets.length ? entries : [],
      tokens,
      encoder,
      seed: opts.seed,
      quick: opts.quick,
      resultsDir,
      records: recordsByPipeline,
      summaries,
      log: opts.log,
    });
    tables.push(...studyTables);
    opts.log(`study ${study.id.padEnd(20)} ${((performance.now() - studyStarted) / 1000).toFixed(1)} s`);
  }

  for (const t of tables) writeTableResult(resultsDir, t);
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
  });
  await renderReports(resultsDir, reportsDir, { log: opts.log });
  return { resultsDir, reportsDir, summaries };
}

function quickSubset(tasks: Task[]): Task[] {
  return (['single', 'multi', 'long'] as const).flatMap((k) => tasks.filter((t) => t.kind === k).slice(0, QUICK_TASKS[k]));
}
