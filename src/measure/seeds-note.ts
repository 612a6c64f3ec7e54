import type { PipelineSummary } from './summarize.ts';

type Seeded = Pick<PipelineSummary, 'label' | 'seeds'>;

/** The seeds most methods of a table ran on (the bench's seeds, where its main methods ran on all). */
function widest(summaries: readonly Seeded[]): number[] {
  return summaries.reduce<number[]>((most, s) => (s.seeds.length > most.length ? s.seeds : most), []);
}

/**
 * The note line naming the methods of a table that ran on fewer of the bench's task sets than
 * the others (the host tool searches and code-execution methods run on the first seed's tasks
 * only, docs/pipelines.md); none when every method ran on the same seeds.
 */
export function fewerSeedsNotes(summaries: readonly Seeded[]): string[] {
  const all = widest(summaries);
  const fewer = summaries.filter((s) => s.seeds.length < all.length);
  if (!fewer.length) return [];
  const bySeeds = new Map<string, string[]>();
  for (const s of fewer) bySeeds.set(s.seeds.join(', '), [...(bySeeds.get(s.seeds.join(', ')) ?? []), s.label]);
  // Labels hold commas ("Code execution, wrapper files"): listed with semicolons.
  const parts = [...bySeeds].map(([seeds, labels]) => `On seed${seeds.includes(',') ? 's' : ''} ${seeds} only: ${labels.join('; ')}.`);
  return [
    `Task sets: the other methods ran on seeds ${all.join(', ')}. ${parts.join(' ')} Same generator, fewer tasks: compare with the CIs.`,
  ];
}

/** The measured tables' line on what their means are over. */
export function meansNote(summaries: readonly Seeded[]): string {
  return `Means over every turn of every task and seed (${widest(summaries).join(', ')}${fewerSeedsNotes(summaries).length ? '; fewer for the methods named below' : ''}); 95% CI: percentile bootstrap over turns, 1,000 resamples.`;
}
