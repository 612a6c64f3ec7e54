import { searchRecall } from '../../measure/search-recall.ts';
import { searchPipelineWithBand } from '../../pipelines/search-bands.ts';
import type { SearchBand } from '../../sim/search-model.ts';
import { pipelineContext, studyWorkDir } from '../common.ts';
import type { StudyContext } from '../types.ts';

/** A search pipeline's recall under the lower and upper searching models (the calibrated point is its own row). */
export interface RecallBand {
  lower: number;
  upper: number;
}

/**
 * The recall band of each searching pipeline the run ran (host tool search, code execution's
 * search_tools, search + execute), on the context's catalog and first
 * task set (the tasks the host searches run on): the same pipeline with the lower searching
 * model (the raw request, one search per tool turn) and the upper one (every search in the
 * needed tools' own words), measured without counting tokens (src/measure/search-recall.ts).
 */
export async function recallBands(ctx: StudyContext, ids: readonly string[]): Promise<Map<string, RecallBand>> {
  const out = new Map<string, RecallBand>();
  const tasks = ctx.taskSets[0]?.tasks ?? ctx.tasks;
  for (const id of ids) {
    const recall = async (band: SearchBand) => {
      const pipeline = searchPipelineWithBand(id, band);
      if (!pipeline) return undefined;
      await pipeline.prepare?.(pipelineContext(ctx, ctx.catalog, studyWorkDir(ctx, 'search-band', `${id}-${band}`)));
      return (await searchRecall(pipeline, tasks, ctx.catalog)).recall;
    };
    const lower = await recall('lower');
    const upper = await recall('upper');
    if (lower !== undefined && upper !== undefined) out.set(id, { lower, upper });
  }
  return out;
}
