import type { Catalog } from '../../catalog/types.ts';
import { runPipeline, type TurnRecord } from '../../measure/run-pipeline.ts';
import { summarize, type PipelineSummary } from '../../measure/summarize.ts';
import type { PipelineEntry } from '../../pipelines/types.ts';
import { shareEncoder } from '../../retrieval/registry.ts';
import { PROJECTION_PARAMS } from '../../sim/projection/params.ts';
import { SUITES, type Suite } from '../../table/suites.ts';
import type { Table } from '../../table/table.ts';
import type { Task } from '../../tasks/types.ts';
import { pipelineContext, studyWorkDir } from '../common.ts';
import { runProjectionStudy } from '../projection/study.ts';
import type { StudyContext } from '../types.ts';

/** A fixed suite's catalog and the tasks a run measures on it. */
export interface SuiteInputs {
  catalog: Catalog;
  tasks: Task[];
}

/** The run's fixed suites (src/table/suites.ts, through the run's registry) that `keep` picks. */
export function fixedSuites(ctx: Pick<StudyContext, 'suites'>, keep: (suite: Suite) => boolean): Suite[] {
  return (ctx.suites ?? SUITES).filter((s) => s.data && keep(s));
}

/**
 * The entries run on one fixed suite, prepared exactly as the bench prepares them on the
 * synthetic suite: nothing is fitted on the suite's tasks (θ is calibrated on the synthetic
 * calibration tasks and carried over). Their work files go under `studies/<workDir>/`.
 */
export async function runOnSuite(
  ctx: StudyContext,
  suite: Suite,
  { catalog, tasks }: SuiteInputs,
  entries: readonly PipelineEntry[],
  /** A log line per method (its tool tokens per turn). */
  logEach = false,
): Promise<{ records: Map<string, TurnRecord[]>; summaries: PipelineSummary[] }> {
  const workDir = suite.data!.workDir;
  // The run's encoder serves any text: the dense and learned retrievers use it on these tools too.
  if (ctx.encoder) shareEncoder(catalog.tools, ctx.encoder);
  const records = new Map<string, TurnRecord[]>();
  const summaries: PipelineSummary[] = [];
  for (const entry of entries) {
    const pipeline = entry.create();
    await pipeline.prepare?.({
      ...pipelineContext(ctx, catalog, studyWorkDir(ctx, workDir, entry.id)),
      // No held-out tasks over these servers: θ is calibrated on the synthetic ones and carried over.
      calibrationTasks: [...ctx.calibrationTasks],
      calibrationCatalog: ctx.catalog,
    });
    const recs = await runPipeline(pipeline, tasks, { catalog, tokens: ctx.tokens, seed: ctx.seed, host: ctx.host });
    const s = summarize(recs, pipeline.label, pipeline.describe?.() ?? { details: {} }, ctx.seed);
    records.set(entry.id, recs);
    summaries.push(s);
    if (logEach)
      ctx.log(
        `${workDir} ${pipeline.label.padEnd(34)} ${Math.round(s.toolTokens.mean).toLocaleString('en-US').padStart(8)} tool tokens/turn`,
      );
  }
  return { records, summaries };
}

/** The projection study's Tables 3 and 4 and host tool search table on one suite's records (no sensitivity table). */
export function projectSuite(
  ctx: StudyContext,
  { catalog, tasks }: SuiteInputs,
  run: { records: ReadonlyMap<string, TurnRecord[]>; summaries: readonly PipelineSummary[] },
  main: readonly PipelineEntry[],
  log: (line: string) => void,
): Promise<Table[]> {
  return runProjectionStudy(
    {
      ...ctx,
      catalog,
      tasks,
      taskSets: [{ seed: ctx.seed, tasks }],
      records: run.records,
      summaries: run.summaries,
      perPipeline: undefined,
      pipelines: main,
      log,
    },
    PROJECTION_PARAMS,
    main,
    false,
  );
}
