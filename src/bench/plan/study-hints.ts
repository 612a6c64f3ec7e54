import type { Catalog } from '../../catalog/types.ts';
import { adversarialEmbeddings } from '../../studies/adversarial/study.ts';
import type { StudyId } from '../../studies/ids.ts';
import { kvSchemaEmbeddings } from '../../studies/kv-schema/study.ts';
import { realSuiteEmbeddings } from '../../studies/real-suite/study.ts';
import { hostSearchEmbeddings } from '../../studies/host-search/study.ts';
import { retrievalEmbeddings } from '../../studies/retrieval/study.ts';
import { scalingEmbeddings } from '../../studies/scaling/study.ts';
import type { EmbeddingContext, StudyEmbeddings } from '../../studies/types.ts';
import type { Task } from '../../tasks/types.ts';
import type { BenchUnit } from '../types.ts';

/**
 * What the bench's scheduler knows of a study besides what it computes: where it runs and what
 * it embeds up front. Only the schedule, the memory peak and the wall time depend on these; every
 * table is the same without them (a study embeds what is missing itself, on any lane).
 */
export interface StudyScheduling {
  /**
   * Leaves memory its thread would not hand back: run first on a worker lane, before the main
   * lane's results grow, on a thread apart that the studies so marked share and that ends after
   * the last of them.
   */
  ownThread?: true;
  /** Its working set is large: started first on a worker lane, while the main lane's results are still small, so the two lanes' largest heaps do not meet. */
  largeWorkingSet?: true;
  /** What it will embed besides the run's catalog and tasks: embedded up front with the rest (in large batches, on every core) instead of inside its lane. */
  toEmbed?: (ctx: EmbeddingContext) => StudyEmbeddings;
}

/** By study id (src/studies/ids.ts); a study not named here has no hint. */
const SCHEDULING: { readonly [K in StudyId]?: StudyScheduling } = {
  // Every main pipeline on the six real dumps: their fits, transcripts and rankings
  // would stay in the lane's heap beside the ablations that run there after it.
  'real-suite': { ownThread: true, toEmbed: realSuiteEmbeddings },
  // Nine methods on the LiveMCPBench tools: like the real suite, their fits go with the thread.
  'host-search': { ownThread: true, toEmbed: hostSearchEmbeddings },
  // With --scaling-sizes 10000: a large heap (catalog, BM25 and TF-IDF indexes of 10,000
  // tools), and index buffers freed only when V8 finalises them.
  scaling: { ownThread: true, largeWorkingSet: true, toEmbed: (ctx) => scalingEmbeddings(ctx) },
  adversarial: { toEmbed: (ctx) => adversarialEmbeddings(ctx) },
  // Sixteen retrievers on three catalogs, four learned models each left out one suite: their
  // indexes, models and analyzer memo go with the thread instead of staying in a lane's heap.
  retrieval: { ownThread: true, largeWorkingSet: true, toEmbed: retrievalEmbeddings },
  // Loads the use-lite model: WebAssembly memory, which cannot shrink.
  'router-latency': { ownThread: true },
  // The traffic's fragments: embedded in the study on a cold cache they started the embedding
  // workers (two use-lite models) beside both lanes.
  'kv-schema': { toEmbed: kvSchemaEmbeddings },
};

/** The scheduling hints of a study id (none for an id not in the table, e.g. a test's own study). */
export function studyScheduling(id: string): StudyScheduling {
  return (Object.hasOwn(SCHEDULING, id) ? SCHEDULING[id as StudyId] : undefined) ?? {};
}

/** The scheduling hints of a bench unit: a study's (studyScheduling), none for a pipeline. */
export function unitScheduling(unit: BenchUnit): StudyScheduling {
  return unit.kind === 'study' ? studyScheduling(unit.id) : {};
}

/** What the run's studies will embed: the catalogs, task sets and texts to add to the up-front embedding pass. */
export function studyEmbeddings(
  studyIds: readonly string[],
  ctx: EmbeddingContext,
): { moreCatalogs: Catalog[]; moreTaskSets: Task[][]; moreTexts: string[] } {
  const wanted = studyIds.map((id) => studyScheduling(id).toEmbed?.(ctx) ?? {});
  return {
    moreCatalogs: wanted.flatMap((w) => w.catalogs ?? []),
    moreTaskSets: wanted.flatMap((w) => w.taskSets ?? []),
    moreTexts: wanted.flatMap((w) => w.texts ?? []),
  };
}
