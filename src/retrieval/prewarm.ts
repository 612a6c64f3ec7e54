import { performance } from 'node:perf_hooks';
import type { Catalog } from '../catalog/types.ts';
import { CachedEncoder } from '../embed/cache.ts';
import type { Encoder } from '../embed/types.ts';
import type { Task } from '../tasks/types.ts';
import { progress } from '../util/progress.ts';
import { turnQuery } from './query.ts';
import { queryText, toolSummaryText } from './texts.ts';

export interface PrewarmInputs {
  catalog: Catalog;
  /** Further catalogs whose tool texts are embedded too (the studies' own: Study.toEmbed). */
  moreCatalogs?: readonly Catalog[];
  /** Further task sets whose queries are embedded as messages and as rolling context (the studies' own). */
  moreTaskSets?: readonly (readonly Task[])[];
  /** Further texts, embedded as they are (the studies' own). */
  moreTexts?: readonly string[];
  /** Every evaluated task set (all seeds) and the held-out calibration tasks. */
  taskSets: readonly (readonly Task[])[];
  log?: (line: string) => void;
}

export interface PrewarmReport {
  texts: number;
  encoded: number;
  seconds: number;
}

/** Texts embedded per call: each call persists its new vectors, so an interrupted cold run keeps its progress. */
const CHUNK = 2048;

/**
 * Embed, in a few large batches, everything the retrieval pipelines will ask for: every tool
 * summary, and every turn's query of every task set. Afterwards each
 * per-turn embed() is an in-memory cache hit. A no-op for encoders without a cache (TF-IDF).
 */
export async function prewarmEmbeddings(encoder: Encoder, inputs: PrewarmInputs): Promise<PrewarmReport> {
  if (!(encoder instanceof CachedEncoder)) return { texts: 0, encoded: 0, seconds: 0 };
  const started = performance.now();
  const texts = new Set<string>();
  // Tool summaries (Tool Attention's ISO text, the dense first stage of the learned and hybrid
  // retrievers). Full definitions are embedded only by B3's paper form (an explicit encoder, not
  // in the registry), in one batch when it builds its index: embedding them here cost a cold run
  // over a thousand texts nothing read.
  for (const tool of [inputs.catalog, ...(inputs.moreCatalogs ?? [])].flatMap((c) => c.tools)) texts.add(toolSummaryText(tool));
  const addQueries = (tasks: readonly Task[], rolling: boolean) => {
    for (const task of tasks)
      task.turns.forEach((turn, i) => {
        texts.add(queryText(turn.user));
        if (rolling) texts.add(turnQuery(task.turns, i, 'rolling'));
      });
  };
  // The rolling-context query (src/retrieval/query.ts) of the first set: its ablation runs on the first seed only.
  inputs.taskSets.forEach((tasks, set) => addQueries(tasks, set === 0));
  for (const tasks of inputs.moreTaskSets ?? []) addQueries(tasks, true);
  for (const text of inputs.moreTexts ?? []) texts.add(text);
  // Shortest first: a chunk then holds texts of few token lengths, and use-lite batches texts of
  // one length together (no padding), so its batches are large (~15% more texts per second).
  const all = [...texts].sort((a, b) => a.length - b.length);
  const before = encoder.stats().misses;
  const bar = progress(`embedding (${encoder.name})`, all.length);
  for (let i = 0; i < all.length; i += CHUNK) {
    await encoder.warm(all.slice(i, i + CHUNK));
    bar.tick(Math.min(CHUNK, all.length - i));
  }
  bar.stop();
  const report = { texts: all.length, encoded: encoder.stats().misses - before, seconds: (performance.now() - started) / 1000 };
  inputs.log?.(
    `embeddings: ${encoder.name}, ${report.texts.toLocaleString('en-US')} distinct texts, ${report.encoded.toLocaleString('en-US')} newly encoded in ${report.seconds.toFixed(1)} s (cache ${encoder.dir})`,
  );
  return report;
}
