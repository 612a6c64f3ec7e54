import { realCatalogDir } from '../../catalog/bundled.ts';
import { loadRealSuite } from '../../tasks/real-suite.ts';
import { SYNTHETIC_CATALOG_NAME } from '../../catalog/generate.ts';
import type { CatalogTool } from '../../catalog/types.ts';
import { evaluateRetriever, type RetrievalEvaluation } from '../../retrieval/evaluate.ts';
import { FEATURES } from '../../retrieval/learned/features.ts';
import type { TrainedReranker } from '../../retrieval/learned/retriever.ts';
import { DEFAULT_QUERY_MODE, describeQueryMode, QUERY_MODES, type QueryMode } from '../../retrieval/query.ts';
import { allRetrieverNames, DEFAULT_RETRIEVER, retrieverByName } from '../../retrieval/registry.ts';
import { retrievalByServerTable, retrievalTable } from '../../retrieval/tables.ts';
import type { Table } from '../../table/table.ts';
import type { Task } from '../../tasks/types.ts';
import type { Study } from '../types.ts';

/** bm25:okapi re-scans every tool text per query (≈ 4 ms): compared on the real set only, where it costs ~1 s, not on thousands of synthetic turns. */
const REAL_SET_ONLY = new Set(['bm25:okapi']);

async function evaluateAll(
  tools: readonly CatalogTool[],
  tasks: readonly Task[],
  mode: QueryMode,
  real = false,
): Promise<RetrievalEvaluation[]> {
  const out: RetrievalEvaluation[] = [];
  for (const name of allRetrieverNames().filter((n) => real || !REAL_SET_ONLY.has(n)))
    out.push(await evaluateRetriever(retrieverByName(name), tools, tasks, mode));
  return out;
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
      `Word associations learned: ${trained.associations.size.toLocaleString('en-US')} query-word/tool-word pairs (cross-fitted leave-one-server-out for the regression's features).`,
    ],
  };
}

/**
 * The retrieval study (issue 8): every retriever on the evaluated tasks of this run and, for
 * the synthetic catalog, on the real-catalog query set (tasks/real/queries.jsonl over the six
 * real dumps), with a query-form ablation by turn position and the learned model's weights.
 */
export const retrievalStudy: Study = {
  id: 'retrieval',
  readsPipelineResults: false,
  toEmbed: (ctx) => {
    const real = ctx.catalog.name === SYNTHETIC_CATALOG_NAME ? loadRealSuite(ctx.root) : undefined;
    return real ? { catalogs: [real.catalog], taskSets: [real.tasks] } : {};
  },
  async run(ctx) {
    if (ctx.tasks.length === 0) return [];
    const tables: Table[] = [];
    const synthetic = await evaluateAll(ctx.catalog.tools, ctx.tasks, DEFAULT_QUERY_MODE);
    tables.push(
      retrievalTable(
        'retrieval-synthetic',
        `Tool retrieval on ${ctx.catalog.name}: evaluated tasks (seed ${ctx.seed})`,
        synthetic,
        DEFAULT_RETRIEVER,
      ),
      await queryFormTable(
        'retrieval-synthetic-query-form',
        `Query form on ${ctx.catalog.name}: R@10 by turn position`,
        ctx.catalog.tools,
        ctx.tasks,
        synthetic,
      ),
    );
    const realDir = realCatalogDir(ctx.root);
    // The real query set goes with the synthetic bench; a user's catalog is measured on its own tasks (above).
    if (ctx.catalog.name === SYNTHETIC_CATALOG_NAME) {
      const realSet = loadRealSuite(ctx.root);
      if (!realSet) {
        ctx.log(`retrieval: real query set skipped (dumps not found in ${realDir}; set TOOLTAX_REAL_CATALOGS)`);
      } else {
        const { catalog: real, tasks } = realSet;
        const evaluations = await evaluateAll(real.tools, tasks, DEFAULT_QUERY_MODE, true);
        tables.push(
          retrievalTable(
            'retrieval-real',
            `Tool retrieval on the real-catalog query set (${tasks.length} tasks, ${real.tools.length} tools)`,
            evaluations,
            DEFAULT_RETRIEVER,
            ['Target (issue 8): best offline retriever R@10 ≥ 0.80; the default at least as good as bm25.'],
          ),
          retrievalByServerTable('retrieval-real-by-server', 'Tool retrieval on the real-catalog query set: R@10 by server', evaluations),
          await queryFormTable(
            'retrieval-real-query-form',
            'Query form on the real query set: R@10 by turn position',
            real.tools,
            tasks,
            evaluations,
          ),
        );
      }
    }
    const learned = retrieverByName(DEFAULT_RETRIEVER) as ReturnType<typeof retrieverByName> & { trained?: () => Promise<TrainedReranker> };
    if (learned.trained) tables.push(learnedModelTable(await learned.trained()));
    return tables;
  },
};

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
    else byMode.set(mode, await Promise.all(names.map((n) => evaluateRetriever(retrieverByName(n), tools, tasks, mode))));
  }
  return queryModeTable(id, title, byMode);
}
