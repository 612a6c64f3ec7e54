import type { Catalog } from '../../catalog/types.ts';
import type { EmbeddingContext, Study, StudyScheduling } from '../../studies/types.ts';
import type { Task } from '../../tasks/types.ts';
import type { BenchUnit } from '../types.ts';
import type { BenchRegistry } from '../units.ts';

/** The scheduling of a bench unit: its study's (Study.scheduling), none for a pipeline or a study without any. */
export function unitScheduling(unit: BenchUnit, registry: Pick<BenchRegistry, 'studies'>): StudyScheduling {
  return (unit.kind === 'study' ? registry.studies.find((s) => s.id === unit.id)?.scheduling : undefined) ?? {};
}

/** What the run's studies will embed: the catalogs, task sets and texts to add to the up-front embedding pass. */
export function studyEmbeddings(
  studies: readonly Study[],
  ctx: EmbeddingContext,
): { moreCatalogs: Catalog[]; moreTaskSets: Task[][]; moreTexts: string[] } {
  const wanted = studies.map((s) => s.scheduling?.toEmbed?.(ctx) ?? {});
  return {
    moreCatalogs: wanted.flatMap((w) => w.catalogs ?? []),
    moreTaskSets: wanted.flatMap((w) => w.taskSets ?? []),
    moreTexts: wanted.flatMap((w) => w.texts ?? []),
  };
}
