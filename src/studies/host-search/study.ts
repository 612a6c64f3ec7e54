import { SYNTHETIC_CATALOG_NAME } from '../../catalog/generate.ts';
import { HOST_SEARCH_IDS } from '../../pipelines/host-search/entries.ts';
import { CODE_SEARCH_IDS } from '../../pipelines/search-bands.ts';
import type { PipelineEntry } from '../../pipelines/types.ts';
import { loadSuite } from '../../tasks/bundled-suites.ts';
import type { Suite } from '../../table/suites.ts';
import type { Table } from '../../table/table.ts';
import { HOST_SEARCH_BESIDE, HOST_SEARCH_TABLE } from '../projection/host-search-table.ts';
import { fixedSuites, projectSuite, runOnSuite } from '../real-suite/suite-run.ts';
import { defineStudy, type EmbeddingContext, type Study, type StudyContext, type StudyEmbeddings } from '../types.ts';

const isShown = (e: Pick<PipelineEntry, 'id'>) =>
  (HOST_SEARCH_BESIDE as readonly string[]).concat(HOST_SEARCH_IDS, CODE_SEARCH_IDS).includes(e.id);

/** The methods the table shows, of those the run ran. */
function shown(ctx: Pick<StudyContext, 'pipelines'>): PipelineEntry[] {
  return ctx.pipelines.some((e) => (HOST_SEARCH_IDS as readonly string[]).includes(e.id)) ? ctx.pipelines.filter(isShown) : [];
}

function applies(ctx: Pick<StudyContext, 'catalog' | 'tasks' | 'pipelines'>): boolean {
  return ctx.catalog.name === SYNTHETIC_CATALOG_NAME && ctx.tasks.length > 0 && shown(ctx).length > 0;
}

/** The suites it runs on: the run's fixed suites without main tables (by default the LiveMCPBench development half). */
function suitesRun(ctx: Pick<StudyContext, 'suites'>): Suite[] {
  return fixedSuites(ctx, (s) => !s.mainTables);
}

/** What the study embeds up front (src/bench/plan/study-hints.ts): its suites' tools and requests. */
export function hostSearchEmbeddings(ctx: EmbeddingContext): StudyEmbeddings {
  const loaded = applies(ctx) ? suitesRun(ctx).flatMap((s) => loadSuite(s, ctx.root) ?? []) : [];
  return loaded.length ? { catalogs: loaded.map((l) => l.catalog), taskSets: loaded.map((l) => l.tasks) } : {};
}

/**
 * The host tool search table on each fixed suite without main tables (src/table/suites.ts; by
 * default the LiveMCPBench development half: 527 tools of 70 real servers, 47 labelled
 * requests): the host searches and B1, B3, B4, Tool Attention and ADOL combined, prepared as on
 * the real suite (θ calibrated on the synthetic calibration tasks and carried over, nothing
 * fitted on these requests), projected by Table 3's model. Runs with the default (synthetic)
 * bench only, like the real suite.
 */
export const hostSearchStudy: Study = defineStudy(import.meta.url, {
  pipelinesGiven: isShown,
  // Nine methods on the LiveMCPBench tools: like the real suite, their fits go with the thread.
  scheduling: { ownThread: true, toEmbed: hostSearchEmbeddings },
  id: 'host-search',
  description: "the hosts' tool search beside the papers' methods on the LiveMCPBench development half",
  readsPipelineResults: false,
  needsTasks: false,
  async run(ctx) {
    if (!applies(ctx)) return [];
    const tables: Table[] = [];
    for (const suite of suitesRun(ctx)) tables.push(...(await suiteTable(ctx, suite)));
    return tables;
  },
});

/** One suite's host tool search table. */
async function suiteTable(ctx: StudyContext, suite: Suite): Promise<Table[]> {
  const data = suite.data!;
  const name = data.longName ?? suite.name;
  const loaded = loadSuite(suite, ctx.root);
  if (!loaded) {
    ctx.log(`${data.workDir}: the catalog or tasks of ${name} are missing; its host tool search table skipped`);
    return [];
  }
  const { catalog, tasks } = loaded;
  const entries = shown(ctx);
  const run = await runOnSuite(ctx, suite, loaded, entries);
  const main = entries.filter((e) => e.group === 'main');
  const projected = await projectSuite(ctx, loaded, run, main, () => {});
  const table = projected.find((t) => t.id === HOST_SEARCH_TABLE);
  if (!table) return [];
  ctx.log(`${data.workDir}: ${entries.length} methods on ${catalog.tools.length} tools, ${tasks.length} tasks`);
  return [
    {
      ...table,
      id: suite.hostSearchTable,
      title: table.title.replace(catalog.name, name),
      notes: [
        `Suite ${name}: ${catalog.tools.length} tools on ${catalog.servers.length} ${data.servers}, ${tasks.length} ${data.tasksText}); θ and the learned retriever as on the real suite (nothing fitted on these requests).`,
        ...(table.notes ?? []),
      ],
    },
  ];
}
