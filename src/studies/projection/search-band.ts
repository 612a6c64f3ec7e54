import { runPipeline, type TurnRecord } from '../../measure/run-pipeline.ts';
import { summarize } from '../../measure/summarize.ts';
import { searchPipelineWithBand } from '../../pipelines/search-bands.ts';
import type { SearchBand } from '../../sim/search-model.ts';
import { pipelineContext, studyWorkDir } from '../common.ts';
import type { StudyContext } from '../types.ts';

/** A searching pipeline's recall and projected success under the lower and upper searching models (the calibrated point is its own row). */
export interface RecallBand {
  lower: number;
  upper: number;
  /** Projected success (0–1, †) under each bound; absent when the caller projects none. */
  successLower?: number;
  successUpper?: number;
}

/** Projects a band's records by the row's own projection (Table 3's model and parameters): its mean success, 0–1. */
export type ProjectSuccess = (id: string, records: readonly TurnRecord[]) => Promise<number>;

/**
 * The band of each searching pipeline the run ran (host tool search, code execution's
 * search_tools, search + execute), on the context's catalog and first task set (the tasks the
 * searches run on): the same pipeline with the lower searching model (the raw request, one
 * search per tool turn) and the upper one (every search in the needed tools' own words),
 * measured as every row is (its recall: the records' summary), then projected by `project`.
 */
export async function recallBands(ctx: StudyContext, ids: readonly string[], project?: ProjectSuccess): Promise<Map<string, RecallBand>> {
  const out = new Map<string, RecallBand>();
  const set = ctx.taskSets[0];
  const tasks = set?.tasks ?? ctx.tasks;
  const seed = set?.seed ?? ctx.seed;
  for (const id of ids) {
    const bound = async (band: SearchBand) => {
      const pipeline = searchPipelineWithBand(id, band);
      if (!pipeline) return undefined;
      await pipeline.prepare?.(pipelineContext(ctx, ctx.catalog, studyWorkDir(ctx, 'search-band', `${id}-${band}`)));
      const records = await runPipeline(pipeline, tasks, { catalog: ctx.catalog, tokens: ctx.tokens, seed });
      return { recall: summarize(records, pipeline.label).recall, success: project ? await project(id, records) : undefined };
    };
    const lower = await bound('lower');
    const upper = await bound('upper');
    if (!lower || !upper) continue;
    out.set(id, {
      lower: lower.recall,
      upper: upper.recall,
      ...(lower.success !== undefined && upper.success !== undefined ? { successLower: lower.success, successUpper: upper.success } : {}),
    });
  }
  return out;
}
