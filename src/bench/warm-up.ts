import { join } from 'node:path';
import { embeddingCacheDir } from '../embed/cache.ts';
import { useLiteKernelNote } from '../embed/native-gemm.ts';
import { DEFAULT_ENCODER } from '../embed/registry.ts';
import type { Encoder } from '../embed/types.ts';
import { releaseEmbedWorkers } from '../embed/worker-pool.ts';
import type { PipelineEntry } from '../pipelines/types.ts';
import { createBenchEncoder } from '../retrieval/encoder.ts';
import { prewarmEmbeddings } from '../retrieval/prewarm.ts';
import { DEFAULT_RETRIEVER, retrieverByName, shareEncoder, trainLearnedModels } from '../retrieval/registry.ts';
import type { Study } from '../studies/types.ts';
import type { Suite } from '../table/suites.ts';
import type { StepTimer } from '../util/step-timer.ts';
import type { RunInputs } from './inputs.ts';
import type { BenchOptions } from './options.ts';
import { studyEmbeddings } from './plan/study-hints.ts';

/** The run's one encoder, warm: what the run will embed is embedded, and the learned models trained (phase 2). */
export interface WarmEncoder {
  encoder: Encoder;
  /** Embedding cache root, filled by the up-front pass. */
  cacheDir: string;
}

/** The embedding cache root of a run (TOOLTAX_CACHE_DIR, else `.cache/embeddings` under the root). */
export function benchCacheDir(root: string): string {
  return embeddingCacheDir(join(root, '.cache', 'embeddings'));
}

/**
 * One encoder for the whole run; everything embeddable is embedded up front in large batches,
 * and the learned models are trained here, in one thread, before the lanes start. A run that
 * runs no pipeline (a merge, a catalog without tasks, a run that restores every unit) only
 * creates the encoder.
 */
export async function warmUp(
  opts: BenchOptions,
  inputs: RunInputs,
  run: { pipelines: readonly PipelineEntry[]; studies: readonly Study[]; suites?: readonly Suite[]; embeds: boolean },
  timer: StepTimer,
): Promise<WarmEncoder> {
  const { catalog, taskSets } = inputs;
  const cacheDir = benchCacheDir(opts.root);
  const encoder = await createBenchEncoder(opts.encoder ?? DEFAULT_ENCODER, catalog, { cacheDir });
  // dense:<bench encoder> (and the hybrids and the learned reranker over it) reuse this warm encoder.
  shareEncoder(catalog.tools, encoder);
  if (!taskSets.length || !run.embeds) return { encoder, cacheDir };
  const more = studyEmbeddings(run.studies, {
    root: opts.root,
    catalog,
    tasks: taskSets[0]!.tasks,
    seed: opts.seed,
    quick: opts.quick,
    scalingSizes: opts.scalingSizes,
    pipelines: run.pipelines,
    suites: run.suites,
  });
  await timer.time('embeddings', () =>
    prewarmEmbeddings(encoder, {
      catalog,
      // History: the learned reranker's training turns (with the calibration tasks).
      taskSets: [...taskSets.map((s) => s.tasks), inputs.calibration, inputs.history],
      ...more,
      log: opts.log,
    }),
  );
  // Which kernel use-lite's products run on and why (timed on this CPU), also when every vector was cached.
  if (encoder.name === 'use-lite') opts.log(`  ${useLiteKernelNote()}`);
  // The embedding workers end now, not after their idle time: their memory is gone before the lanes start.
  await releaseEmbedWorkers();
  // The learned models (a no-op when they are on disk), when the run ranks with one: its
  // retriever has fitted parts, or the retrieval study ranks with all.
  const ranksLearned =
    retrieverByName(opts.retriever ?? DEFAULT_RETRIEVER).fittedOn !== undefined || run.studies.some((s) => s.ranksLearned);
  if (ranksLearned) await timer.time('learned models', () => trainLearnedModels([catalog.tools, ...more.moreCatalogs.map((c) => c.tools)]));
  return { encoder, cacheDir };
}
