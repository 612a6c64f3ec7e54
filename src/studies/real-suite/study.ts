import { loadSuite } from '../../tasks/bundled-suites.ts';
import { SYNTHETIC_CATALOG_NAME } from '../../catalog/generate.ts';
import { mainMeasuredTable } from '../../measure/main-table.ts';
import { codeModeTable } from '../../measure/code-mode-table.ts';
import { MEASUREMENT_PARAMS } from '../../measure/params.ts';
import type { TurnRecord } from '../../measure/run-pipeline.ts';
import type { PipelineSummary } from '../../measure/summarize.ts';
import type { PipelineEntry } from '../../pipelines/types.ts';
import { retrievalNote } from '../../retrieval/settings-note.ts';
import type { Suite } from '../../table/suites.ts';
import type { Table } from '../../table/table.ts';
import type { Task } from '../../tasks/types.ts';
import { defineStudy, type EmbeddingContext, type Study, type StudyContext, type StudyEmbeddings } from '../types.ts';
import { adolMechanismTable } from '../adol/study.ts';
import { forSuite } from './for-suite.ts';
import { HOST_SEARCH_TABLE } from '../projection/host-search-table.ts';
import { fixedSuites, projectSuite, runOnSuite, type SuiteInputs } from './suite-run.ts';

/** The ADOL preset with every mechanism on, and the baseline its table compares with. */
const ADOL_ALL_MECHANISMS = 'adol-combined';
const BASELINE = 'b1-full-schema';

/**
 * The fixed suites with main tables (src/table/suites.ts; by default the real suite): every main pipeline (B1–B4, Tool Attention in both forms) and ADOL with every
 * mechanism on, run on the six real `tools/list` dumps (267 tools) with the hand-written real query
 * set, prepared exactly as the bench prepares them on the synthetic suite, giving Table 3
 * (measured and projected) and Table 4 for this suite beside the synthetic one.
 *
 * Nothing is fitted on the real queries: the learned retriever keeps its training set, θ is
 * calibrated on the synthetic calibration tasks (over synthetic-120) and carried over, and B2,
 * with no usage history over these servers, takes its documented fallback subset. Each table
 * says so in its notes. Runs with the default (synthetic) bench only: a user's own catalog is
 * measured on its own tasks. A suite added to the registry with `mainTables` gets the same
 * tables, with its id in theirs.
 */
function suitesRun(ctx: Pick<StudyContext, 'suites'>): Suite[] {
  return fixedSuites(ctx, (s) => s.mainTables);
}

/** What the study embeds (the bench embeds it up front: src/bench/plan/study-hints.ts): the suites' tools and queries. */
function realSuiteEmbeddings(ctx: EmbeddingContext): StudyEmbeddings {
  if (ctx.catalog.name !== SYNTHETIC_CATALOG_NAME || !ctx.tasks.length) return {};
  const loaded = suitesRun(ctx).flatMap((s) => loadSuite(s, ctx.root) ?? []);
  return loaded.length ? { catalogs: loaded.map((l) => l.catalog), taskSets: loaded.map((l) => l.tasks) } : {};
}

export const realSuiteStudy: Study = defineStudy(import.meta.url, {
  pipelinesGiven: (e) => e.group === 'main' || e.id === ADOL_ALL_MECHANISMS,
  // Every main pipeline on the six real dumps: their fits, transcripts and rankings would stay
  // in the lane's heap beside the ablations that run there after it.
  scheduling: { ownThread: true, toEmbed: realSuiteEmbeddings, cost: 5 },
  id: 'real-suite',
  description: 'Table 3 (measured and projected) and Table 4 on the six real servers with the hand-written query set',
  readsPipelineResults: false,
  // It runs with the default (synthetic) bench only: a task file for your catalog would not bring it.
  needsTasks: false,
  async run(ctx) {
    if (ctx.catalog.name !== SYNTHETIC_CATALOG_NAME || ctx.tasks.length === 0) return [];
    const tables: Table[] = [];
    for (const suite of suitesRun(ctx)) tables.push(...(await suiteTables(ctx, suite)));
    return tables;
  },
});

/** One suite's tables: its main pipelines run on its catalog and tasks. */
async function suiteTables(ctx: StudyContext, suite: Suite): Promise<Table[]> {
  const data = suite.data!;
  const loaded = loadSuite(suite, ctx.root);
  if (!loaded) {
    ctx.log(`${data.workDir}: the catalog or tasks of ${suite.name} are missing; its Table 3 skipped`);
    return [];
  }
  const { catalog } = loaded;
  const tasks = ctx.quick ? loaded.tasks.slice(0, data.quickTasks) : loaded.tasks;
  // ADOL as one method, every mechanism on (its mechanisms one by one on each real dump: the ADOL study's static table).
  const entries = ctx.pipelines.filter((e) => e.group === 'main' || e.id === ADOL_ALL_MECHANISMS);
  const { records, summaries } = await runOnSuite(ctx, suite, { catalog, tasks }, entries, true);
  const settings = new Map(summaries.map((s) => [s.pipeline, s.settings]));
  const main = entries.filter((e) => e.group === 'main');
  const mainSummaries = summaries.filter((s) => main.some((e) => e.id === s.pipeline));
  const context = `Suite ${suite.name}: catalog ${catalog.tools.length} tools on ${catalog.servers.length} ${data.servers}, ${tasks.length} ${data.tasksText}${ctx.quick ? ', --quick subset' : ''}), tokenizer ${ctx.tokens.tokenizer}${ctx.host ? `, tool list as ${ctx.host.profile.label} sends it` : ''}.`;
  const retrieval = retrievalNote(
    new Map(main.map((e) => [e.id, settings.get(e.id)!])),
    new Map(summaries.map((s) => [s.pipeline, s.label])),
  );
  const tables: Table[] = [
    forSuite(mainMeasuredTable(mainSummaries, retrieval ? `${context} ${retrieval}` : context), suite, suite.measuredTable, [
      rhoNote(tasks, data.taskSetName),
    ]),
    ...(await projectedTables(ctx, suite, { catalog, tasks }, { records, summaries }, main)),
    codeModeTable(summaries, entries, context, suite.codeModeTable),
  ];
  if (records.has(ADOL_ALL_MECHANISMS) && records.has(BASELINE)) {
    // The ADOL study's mechanisms table, on this suite's records.
    const adol = adolMechanismTable({ records, summaries, catalog, tokens: ctx.tokens });
    tables.push({ ...adol, id: `adol-${suite.id}`, title: `${adol.title} — ${suite.name}`, notes: [context, ...(adol.notes ?? [])] });
  }
  return tables;
}

/** Why rho at turn 30 is "—" on this suite (or which tasks it is measured on). */
function rhoNote(tasks: readonly Task[], taskSetName: string): string {
  const longest = Math.max(0, ...tasks.map((t) => t.turns.length));
  return longest >= MEASUREMENT_PARAMS.rhoTurn
    ? `rho T${MEASUREMENT_PARAMS.rhoTurn}: on the tasks of at least ${MEASUREMENT_PARAMS.rhoTurn} turns.`
    : `rho T${MEASUREMENT_PARAMS.rhoTurn}: — (${taskSetName} has no task of ${MEASUREMENT_PARAMS.rhoTurn} turns; its longest has ${longest}).`;
}

/** Tables 3 and 4 (projected) of the suite, by the projection study's own code on this suite's records. */
async function projectedTables(
  ctx: StudyContext,
  suite: Suite,
  inputs: SuiteInputs,
  run: { records: ReadonlyMap<string, TurnRecord[]>; summaries: readonly PipelineSummary[] },
  main: readonly PipelineEntry[],
): Promise<Table[]> {
  const projected = await projectSuite(ctx, inputs, run, main, (line) => ctx.log(`${suite.data!.workDir} ${line}`));
  const pick = (id: string) => projected.find((t) => t.id === id);
  const out: Table[] = [];
  const t3 = pick('table3-projected');
  if (t3) out.push(forSuite(t3, suite, suite.projectedTable));
  const t4 = pick('table4-projected');
  if (t4) out.push(forSuite(t4, suite, suite.qualityTable));
  const hostSearch = pick(HOST_SEARCH_TABLE);
  if (hostSearch) out.push({ ...hostSearch, id: suite.hostSearchTable, title: hostSearch.title.replace(inputs.catalog.name, suite.name) });
  return out;
}
