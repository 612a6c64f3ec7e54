import { SYNTHETIC_CATALOG_NAME } from '../../catalog/generate.ts';
import { runPipeline, type TurnRecord } from '../../measure/run-pipeline.ts';
import { summarize, type PipelineSummary } from '../../measure/summarize.ts';
import { HOST_SEARCH_IDS } from '../../pipelines/host-search/entries.ts';
import type { PipelineEntry } from '../../pipelines/types.ts';
import { shareEncoder } from '../../retrieval/registry.ts';
import { PROJECTION_PARAMS } from '../../sim/projection/params.ts';
import { loadSuite } from '../../tasks/bundled-suites.ts';
import { LIVEMCPBENCH_SUITE } from '../../table/suites.ts';
import { pipelineContext, studyWorkDir } from '../common.ts';
import { HOST_SEARCH_BESIDE, HOST_SEARCH_TABLE } from '../projection/host-search-table.ts';
import { runProjectionStudy } from '../projection/study.ts';
import type { EmbeddingContext, Study, StudyContext, StudyEmbeddings } from '../types.ts';

/** The suite's name in the table. */
const SUITE = 'LiveMCPBench development half';

/** The methods the table shows, of those the run ran. */
function shown(ctx: Pick<StudyContext, 'pipelines'>): PipelineEntry[] {
  const ids: readonly string[] = [...HOST_SEARCH_BESIDE, ...HOST_SEARCH_IDS];
  return ctx.pipelines.some((e) => (HOST_SEARCH_IDS as readonly string[]).includes(e.id))
    ? ctx.pipelines.filter((e) => ids.includes(e.id))
    : [];
}

function applies(ctx: Pick<StudyContext, 'catalog' | 'tasks' | 'pipelines'>): boolean {
  return ctx.catalog.name === SYNTHETIC_CATALOG_NAME && ctx.tasks.length > 0 && shown(ctx).length > 0;
}

/** What the study embeds up front (src/commands/study-scheduling.ts): the LiveMCPBench tools and requests. */
export function hostSearchEmbeddings(ctx: EmbeddingContext): StudyEmbeddings {
  const suite = applies(ctx) ? loadSuite(LIVEMCPBENCH_SUITE, ctx.root) : undefined;
  return suite ? { catalogs: [suite.catalog], taskSets: [suite.tasks] } : {};
}

/**
 * The host tool search table on a third suite, the LiveMCPBench development half (527 tools of
 * 70 real servers, 47 labelled requests): the host searches and B1, B3, B4, Tool Attention and
 * ADOL combined, prepared as on the real suite (θ calibrated on the synthetic calibration tasks
 * and carried over, nothing fitted on these requests), projected by Table 3's model. Runs with
 * the default (synthetic) bench only, like the real suite.
 */
export const hostSearchStudy: Study = {
  id: 'host-search',
  description: "the hosts' tool search beside the papers' methods on the LiveMCPBench development half",
  readsPipelineResults: false,
  needsTasks: false,
  async run(ctx) {
    if (!applies(ctx)) return [];
    const suite = loadSuite(LIVEMCPBENCH_SUITE, ctx.root);
    if (!suite) {
      ctx.log('host-search: the LiveMCPBench catalog or tasks are missing; its host tool search table skipped');
      return [];
    }
    const { catalog, tasks } = suite;
    if (ctx.encoder) shareEncoder(catalog.tools, ctx.encoder);
    const entries = shown(ctx);
    const records = new Map<string, TurnRecord[]>();
    const summaries: PipelineSummary[] = [];
    for (const entry of entries) {
      const pipeline = entry.create();
      await pipeline.prepare?.({
        ...pipelineContext(ctx, catalog, studyWorkDir(ctx, 'host-search', entry.id)),
        calibrationTasks: [...ctx.calibrationTasks],
        calibrationCatalog: ctx.catalog,
      });
      const recs = await runPipeline(pipeline, tasks, { catalog, tokens: ctx.tokens, seed: ctx.seed, host: ctx.host });
      records.set(entry.id, recs);
      summaries.push(summarize(recs, pipeline.label, pipeline.describe?.() ?? { details: {} }, ctx.seed));
    }
    const main = entries.filter((e) => e.group === 'main');
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
        log: () => {},
      },
      PROJECTION_PARAMS,
      main,
      false,
    );
    const table = projected.find((t) => t.id === HOST_SEARCH_TABLE);
    if (!table) return [];
    ctx.log(`host-search: ${entries.length} methods on ${catalog.tools.length} tools, ${tasks.length} tasks`);
    return [
      {
        ...table,
        id: `${HOST_SEARCH_TABLE}-livemcpbench`,
        title: table.title.replace(catalog.name, SUITE),
        notes: [
          `Suite ${SUITE}: ${catalog.tools.length} tools on ${catalog.servers.length} real servers (catalogs/livemcpbench), ${tasks.length} labelled requests (tasks/livemcpbench/dev.tasks.jsonl); θ and the learned retriever as on the real suite (nothing fitted on these requests).`,
          ...(table.notes ?? []),
        ],
      },
    ];
  },
};
