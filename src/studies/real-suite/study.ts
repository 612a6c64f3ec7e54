import { loadRealSuite } from '../../tasks/bundled-suites.ts';
import { SYNTHETIC_CATALOG_NAME } from '../../catalog/generate.ts';
import { mainMeasuredTable } from '../../measure/main-table.ts';
import { codeModeTable } from '../../measure/code-mode-table.ts';
import { MEASUREMENT_PARAMS } from '../../measure/params.ts';
import { runPipeline, type TurnRecord } from '../../measure/run-pipeline.ts';
import { summarize, type PipelineSummary } from '../../measure/summarize.ts';
import type { PipelineEntry } from '../../pipelines/types.ts';
import { shareEncoder } from '../../retrieval/registry.ts';
import { retrievalNote } from '../../retrieval/settings-note.ts';
import { PROJECTION_PARAMS } from '../../sim/projection/params.ts';
import { REAL_SUITE } from '../../table/suites.ts';
import type { Table } from '../../table/table.ts';
import type { Task } from '../../tasks/types.ts';
import { pipelineContext, studyWorkDir } from '../common.ts';
import { runProjectionStudy } from '../projection/study.ts';
import type { EmbeddingContext, Study, StudyContext, StudyEmbeddings } from '../types.ts';
import { adolMechanismTable } from '../adol/study.ts';
import { forSuite } from './for-suite.ts';
import { HOST_SEARCH_TABLE } from '../projection/host-search-table.ts';

/** The ADOL preset with every mechanism on, and the baseline its table compares with. */
const ADOL_ALL_MECHANISMS = 'adol-combined';
const BASELINE = 'b1-full-schema';

/** Tasks of the real query set in a --quick run: the first ones, in file order. */
const QUICK_TASKS = 60;

/**
 * The real suite: every main pipeline (B1–B4, Tool Attention in both forms) and ADOL with every
 * mechanism on, run on the six real `tools/list` dumps (267 tools) with the hand-written real query
 * set, prepared exactly as the bench prepares them on the synthetic suite, giving Table 3
 * (measured and projected) and Table 4 for this suite beside the synthetic one.
 *
 * Nothing is fitted on the real queries: the learned retriever keeps its training set, θ is
 * calibrated on the synthetic calibration tasks (over synthetic-120) and carried over, and B2,
 * with no usage history over these servers, takes its documented fallback subset. Each table
 * says so in its notes. Runs with the default (synthetic) bench only: a user's own catalog is
 * measured on its own tasks.
 */
/** What the study embeds (the bench embeds it up front: src/bench/plan/study-hints.ts): the real suite's tools and queries. */
export function realSuiteEmbeddings(ctx: EmbeddingContext): StudyEmbeddings {
  const suite = ctx.catalog.name === SYNTHETIC_CATALOG_NAME && ctx.tasks.length ? loadRealSuite(ctx.root) : undefined;
  return suite ? { catalogs: [suite.catalog], taskSets: [suite.tasks] } : {};
}

export const realSuiteStudy: Study = {
  id: 'real-suite',
  description: 'Table 3 (measured and projected) and Table 4 on the six real servers with the hand-written query set',
  readsPipelineResults: false,
  // It runs with the default (synthetic) bench only: a task file for your catalog would not bring it.
  needsTasks: false,
  async run(ctx) {
    if (ctx.catalog.name !== SYNTHETIC_CATALOG_NAME || ctx.tasks.length === 0) return [];
    const suite = loadRealSuite(ctx.root);
    if (!suite) {
      ctx.log('real-suite: the real dumps or tasks/real/queries.jsonl are missing; Table 3 of the real suite skipped');
      return [];
    }
    const { catalog } = suite;
    const tasks = ctx.quick ? suite.tasks.slice(0, QUICK_TASKS) : suite.tasks;
    // The run's encoder serves any text: the dense and learned retrievers use it on these tools too.
    if (ctx.encoder) shareEncoder(catalog.tools, ctx.encoder);
    // ADOL as one method, every mechanism on (its mechanisms one by one on each real dump: the ADOL study's static table).
    const entries = ctx.pipelines.filter((e) => e.group === 'main' || e.id === ADOL_ALL_MECHANISMS);
    const records = new Map<string, TurnRecord[]>();
    const summaries: PipelineSummary[] = [];
    const settings = new Map<string, PipelineSummary['settings']>();
    for (const entry of entries) {
      const pipeline = entry.create();
      await pipeline.prepare?.({
        ...pipelineContext(ctx, catalog, studyWorkDir(ctx, 'real-suite', entry.id)),
        // No held-out tasks over these servers: θ is calibrated on the synthetic ones and carried over.
        calibrationTasks: [...ctx.calibrationTasks],
        calibrationCatalog: ctx.catalog,
      });
      const recs = await runPipeline(pipeline, tasks, { catalog, tokens: ctx.tokens, seed: ctx.seed, host: ctx.host });
      const s = summarize(recs, pipeline.label, pipeline.describe?.() ?? { details: {} }, ctx.seed);
      records.set(entry.id, recs);
      summaries.push(s);
      settings.set(entry.id, s.settings);
      ctx.log(
        `real-suite ${pipeline.label.padEnd(34)} ${Math.round(s.toolTokens.mean).toLocaleString('en-US').padStart(8)} tool tokens/turn`,
      );
    }
    const main = entries.filter((e) => e.group === 'main');
    const mainSummaries = summaries.filter((s) => main.some((e) => e.id === s.pipeline));
    const context = `Suite ${REAL_SUITE.name}: catalog ${catalog.tools.length} tools on ${catalog.servers.length} real servers (catalogs/real), ${tasks.length} hand-written tasks (tasks/real/queries.jsonl${ctx.quick ? ', --quick subset' : ''}), tokenizer ${ctx.tokens.tokenizer}${ctx.host ? `, tool list as ${ctx.host.profile.label} sends it` : ''}.`;
    const retrieval = retrievalNote(
      new Map(main.map((e) => [e.id, settings.get(e.id)!])),
      new Map(summaries.map((s) => [s.pipeline, s.label])),
    );
    const tables: Table[] = [
      forSuite(mainMeasuredTable(mainSummaries, retrieval ? `${context} ${retrieval}` : context), REAL_SUITE.measuredTable, [
        rhoNote(tasks),
      ]),
      ...(await projectedTables(ctx, catalog, tasks, records, summaries, main)),
      codeModeTable(summaries, entries, context, REAL_SUITE.codeModeTable),
    ];
    if (records.has(ADOL_ALL_MECHANISMS) && records.has(BASELINE)) {
      // The ADOL study's mechanisms table, on this suite's records.
      const adol = adolMechanismTable({ records, summaries, catalog, tokens: ctx.tokens });
      tables.push({ ...adol, id: 'adol-real', title: `${adol.title} — ${REAL_SUITE.name}`, notes: [context, ...(adol.notes ?? [])] });
    }
    return tables;
  },
};

/** Why rho at turn 30 is "—" on this suite (or which tasks it is measured on). */
function rhoNote(tasks: readonly Task[]): string {
  const longest = Math.max(0, ...tasks.map((t) => t.turns.length));
  return longest >= MEASUREMENT_PARAMS.rhoTurn
    ? `rho T${MEASUREMENT_PARAMS.rhoTurn}: on the tasks of at least ${MEASUREMENT_PARAMS.rhoTurn} turns.`
    : `rho T${MEASUREMENT_PARAMS.rhoTurn}: — (the real query set has no task of ${MEASUREMENT_PARAMS.rhoTurn} turns; its longest has ${longest}).`;
}

/** Tables 3 and 4 (projected) of the suite, by the projection study's own code on this suite's records. */
async function projectedTables(
  ctx: StudyContext,
  catalog: StudyContext['catalog'],
  tasks: Task[],
  records: ReadonlyMap<string, TurnRecord[]>,
  summaries: readonly PipelineSummary[],
  main: readonly PipelineEntry[],
): Promise<Table[]> {
  const projected = await runProjectionStudy(
    {
      ...ctx,
      catalog,
      tasks,
      taskSets: [{ seed: ctx.seed, tasks }],
      records,
      summaries,
      perPipeline: undefined,
      pipelines: main,
      log: (line) => ctx.log(`real-suite ${line}`),
    },
    PROJECTION_PARAMS,
    main,
    false,
  );
  const pick = (id: string) => projected.find((t) => t.id === id);
  const out: Table[] = [];
  const t3 = pick('table3-projected');
  if (t3) out.push(forSuite(t3, REAL_SUITE.projectedTable));
  const t4 = pick('table4-projected');
  if (t4) out.push(forSuite(t4, REAL_SUITE.qualityTable));
  const hostSearch = pick(HOST_SEARCH_TABLE);
  if (hostSearch)
    out.push({ ...hostSearch, id: `${HOST_SEARCH_TABLE}-real`, title: hostSearch.title.replace(catalog.name, REAL_SUITE.name) });
  return out;
}
