import { dirname } from 'node:path';
import { SYNTHETIC_SUITE, type Suite, type SuiteRetrieval } from '../../table/suites.ts';
import { loadSuite } from '../../tasks/bundled-suites.ts';
import { SYNTHETIC_CATALOG_NAME } from '../../catalog/generate.ts';
import type { CatalogTool } from '../../catalog/types.ts';
import { evaluateRetrievers, skippedNotes, type RetrievalEvaluation, type SkippedRetriever } from '../../retrieval/evaluate.ts';
import { FEATURES } from '../../retrieval/learned/features.ts';
import type { TrainedReranker } from '../../retrieval/learned/retriever.ts';
import { DEFAULT_QUERY_MODE, describeQueryMode, QUERY_MODES, type QueryMode } from '../../retrieval/query.ts';
import { requestClauses } from '../../retrieval/multi-intent.ts';
import { allRetrieverNames, DEFAULT_RETRIEVER, retrieverByName } from '../../retrieval/registry.ts';
import { retrievalByServerTable, retrievalTable, wholeCatalogNotes } from '../../retrieval/tables.ts';
import type { Table } from '../../table/table.ts';
import type { Task } from '../../tasks/types.ts';
import { defineStudy, type EmbeddingContext, type Study, type StudyContext, type StudyEmbeddings } from '../types.ts';
import { allNeededTable, generalisationTable, type SuiteEvaluations } from './generalisation.ts';
import { fixedSuites } from '../real-suite/suite-run.ts';
import { NO_PIPELINES } from '../common.ts';

/**
 * bm25:okapi re-scans every tool text per query (okapibm25 has no index): measured on the real
 * and LiveMCPBench suites, not on a suite of more than LARGE_SUITE_TURNS turns (the synthetic one).
 */
const NOT_ON_LARGE_SUITES = new Set(['bm25:okapi']);
const LARGE_SUITE_TURNS = 1000;

async function evaluateAll(
  tools: readonly CatalogTool[],
  tasks: readonly Task[],
  mode: QueryMode,
): Promise<{ evaluations: RetrievalEvaluation[]; skipped: SkippedRetriever[] }> {
  const large = tasks.reduce((n, t) => n + t.turns.length, 0) > LARGE_SUITE_TURNS;
  const names = allRetrieverNames().filter((n) => !large || !NOT_ON_LARGE_SUITES.has(n));
  return evaluateRetrievers(
    names.map((n) => retrieverByName(n)),
    tools,
    tasks,
    mode,
  );
}

/** R@10 and all-needed@10 of a few retrievers with and without the rolling context, first turns vs follow-ups. */
function queryModeTable(id: string, title: string, byMode: ReadonlyMap<QueryMode, RetrievalEvaluation[]>): Table {
  const rows = [...byMode].flatMap(([mode, evaluations]) =>
    evaluations.map((e) => ({
      retriever: e.retriever,
      query: describeQueryMode(mode),
      first: e.byPosition.first.recallAt[10],
      followUp: e.byPosition.followUp.turns ? e.byPosition.followUp.recallAt[10] : null,
      followUpAll: e.byPosition.followUp.turns ? e.byPosition.followUp.allNeededAt10 : null,
      overall: e.overall.recallAt[10],
    })),
  );
  return {
    id,
    title,
    columns: [
      { key: 'retriever', header: 'retriever', kind: 'label' },
      { key: 'query', header: 'query', kind: 'label' },
      { key: 'first', header: 'R@10 first turns', kind: 'measured', digits: 3 },
      { key: 'followUp', header: 'R@10 follow-ups', kind: 'measured', digits: 3 },
      { key: 'followUpAll', header: 'follow-ups with all needed in top 10', kind: 'measured', digits: 3 },
      { key: 'overall', header: 'R@10 all turns', kind: 'measured', digits: 3 },
    ],
    rows,
    notes: ['First turns have no earlier message, so both query forms are the same there.'],
  };
}

function learnedModelTable(trained: TrainedReranker): Table {
  return {
    id: 'retrieval-learned-model',
    title: 'Learned reranker: logistic-regression weights (standardised features)',
    columns: [
      { key: 'feature', header: 'feature', kind: 'label' },
      { key: 'weight', header: 'weight', kind: 'measured', digits: 3 },
    ],
    rows: [
      ...FEATURES.map((f, i) => ({ feature: f, weight: trained.model.weights[i] })),
      { feature: '(bias)', weight: trained.model.bias },
    ],
    notes: [
      `Trained on ${trained.source}: ${trained.model.examples.toLocaleString('en-US')} (turn, candidate tool) pairs, ${trained.model.positives} needed, ${trained.trainingTaskIds.length} tasks; logistic regression by Newton's method from zero weights, ${trained.model.iterations} iterations (deterministic).`,
      `Word associations learned: ${trained.associations.size.toLocaleString('en-US')} query-word/tool-word pairs (cross-fitted for the regression's features: leave-one-source-out, or leave-one-server-out with a single source).`,
    ],
  };
}

/** A task set the retrievers are measured on: its catalog, its tasks and where they come from. */
interface RetrievalSuite {
  id: string;
  name: string;
  /** Its `retrieval-…` table's id. */
  table: string;
  tools: readonly CatalogTool[];
  tasks: readonly Task[];
  /** What else the study measures on it (the run's own suite: the query-form ablation). */
  retrieval: SuiteRetrieval;
}

/** The suites of this run: the run's own tasks and, with the synthetic bench, every fixed suite of the registry (src/table/suites.ts). */
function retrievalSuites(ctx: Pick<StudyContext, 'root' | 'catalog' | 'tasks' | 'suites' | 'log'>): RetrievalSuite[] {
  const synthetic = ctx.catalog.name === SYNTHETIC_CATALOG_NAME;
  const suites: RetrievalSuite[] = [
    {
      id: synthetic ? 'synthetic' : 'catalog',
      name: ctx.catalog.name,
      table: SYNTHETIC_SUITE.retrievalTable,
      tools: ctx.catalog.tools,
      tasks: ctx.tasks,
      retrieval: { queryForm: true },
    },
  ];
  // The bundled suites go with the synthetic bench; a user's catalog is measured on its own tasks.
  if (!synthetic) return suites;
  for (const suite of fixedSuites(ctx, () => true)) {
    const loaded = loadSuite(suite, ctx.root);
    if (loaded)
      suites.push({
        id: suite.id,
        name: suite.name,
        table: suite.retrievalTable,
        tools: loaded.catalog.tools,
        tasks: loaded.tasks,
        retrieval: suite.data!.retrieval ?? {},
      });
    else ctx.log(`retrieval: ${suite.data!.taskSetName} skipped (its catalog or tasks were not found: ${missingHint(suite, ctx.root)})`);
  }
  return suites;
}

/** Where a suite's data was looked for, and how to point elsewhere when the suite says. */
function missingHint(suite: Suite, root: string): string {
  const data = suite.data!;
  const where = [...new Set([data.catalog(root)].flat().map((p) => (p.endsWith('.json') ? dirname(p) : p)))];
  return `${[...where, data.tasks(root)].join(', ')}${data.whenMissing ? `; ${data.whenMissing}` : ''}`;
}

/** What the study embeds (the bench embeds it up front: src/bench/plan/study-hints.ts): the other suites' tools and queries. */
export function retrievalEmbeddings(ctx: EmbeddingContext): StudyEmbeddings {
  const suites = retrievalSuites({ ...ctx, log: () => {} });
  const more = suites.slice(1);
  return {
    catalogs: more.map((s) => ({ name: s.name, source: s.name, servers: [], tools: [...s.tools] })),
    taskSets: more.map((s) => [...s.tasks]),
    // The several-intents variant also asks for each clause of every message: embedded up front, not by a model loaded in this study's thread.
    texts: [...new Set(suites.flatMap((s) => s.tasks.flatMap((t) => t.turns.flatMap((u) => requestClauses(u.user)))))],
  };
}

/**
 * The retrieval study: every registered retriever on every suite of the run (the synthetic
 * tasks, the real query set over the six real dumps, the LiveMCPBench development half), a
 * generalisation table across them with the targets checked, all-needed@k, a query-form
 * ablation by turn position and the learned model's weights. The learned parts never see the
 * suite they are measured on (leave-one-suite-out, src/retrieval/learned/training-set.ts).
 */
export const retrievalStudy: Study = defineStudy(import.meta.url, {
  pipelinesGiven: NO_PIPELINES,
  // Sixteen retrievers on three catalogs, four learned models each left out one suite: their
  // indexes, models and analyzer memo go with the thread instead of staying in a lane's heap.
  scheduling: { ownThread: true, largeWorkingSet: true, toEmbed: retrievalEmbeddings, cost: 12 },
  // It ranks with every retriever, the learned ones among them: their models are trained up front.
  ranksLearned: true,
  id: 'retrieval',
  description: 'every registered retriever on every suite: recall@k, served@k, MRR, nDCG@10, generalisation across suites',
  readsPipelineResults: false,
  needsTasks: true,
  async run(ctx) {
    if (ctx.tasks.length === 0) return [];
    const tables: Table[] = [];
    const results: SuiteEvaluations[] = [];
    for (const suite of retrievalSuites(ctx)) {
      const { evaluations, skipped } = await evaluateAll(suite.tools, suite.tasks, DEFAULT_QUERY_MODE);
      results.push({ suite: { id: suite.id, name: suite.name, r10Target: suite.retrieval.r10Target }, evaluations });
      const id = suite.table;
      const turns = suite.tasks.reduce((n, t) => n + t.turns.length, 0);
      tables.push(
        retrievalTable(
          id,
          `Tool retrieval on ${suite.name} (${suite.tasks.length.toLocaleString('en-US')} tasks, ${turns.toLocaleString('en-US')} turns, ${suite.tools.length} tools)`,
          evaluations,
          DEFAULT_RETRIEVER,
          [...wholeCatalogNotes(suite.tools.length), ...fittedNotes(evaluations), ...skippedNotes(skipped)],
        ),
      );
      if (suite.retrieval.byServer)
        tables.push(retrievalByServerTable(`${id}-by-server`, `Tool retrieval on ${suite.name}: R@10 by server`, evaluations));
      if (suite.retrieval.queryForm)
        tables.push(
          await queryFormTable(
            `${id}-query-form`,
            `Query form on ${suite.name}: R@10 by turn position`,
            suite.tools,
            suite.tasks,
            evaluations,
          ),
        );
    }
    if (results.length > 1) tables.push(generalisationTable(results, DEFAULT_RETRIEVER), allNeededTable(results));
    // `learned` is the reranker of ./learned/retriever.ts: what it trains is a TrainedReranker.
    const learned = retrieverByName('learned');
    if (learned.trained) tables.push(learnedModelTable((await learned.trained()) as TrainedReranker));
    return tables;
  },
});

/** What each fitted retriever of the table was fitted on, for this suite's catalog. */
function fittedNotes(evaluations: readonly RetrievalEvaluation[]): string[] {
  const lines = evaluations.filter((e) => e.fittedOn).map((e) => `${e.retriever}: fitted on ${e.fittedOn}.`);
  return lines.length ? [`Fitted parts, never on this suite (leave-one-suite-out): ${lines.join(' ')}`] : [];
}

/** The query-form ablation for bm25 and the default: the default form (already evaluated) against the other. */
async function queryFormTable(
  id: string,
  title: string,
  tools: readonly CatalogTool[],
  tasks: readonly Task[],
  evaluated: readonly RetrievalEvaluation[],
): Promise<Table> {
  const names = [...new Set(['bm25', DEFAULT_RETRIEVER])];
  const byMode = new Map<QueryMode, RetrievalEvaluation[]>();
  for (const mode of QUERY_MODES) {
    if (mode === DEFAULT_QUERY_MODE)
      byMode.set(
        mode,
        evaluated.filter((e) => names.includes(e.retriever)),
      );
    else byMode.set(mode, (await evaluateRetrievers(names.map(retrieverByName), tools, tasks, mode)).evaluations);
  }
  return queryModeTable(id, title, byMode);
}
