import type { PipelineSummary } from './summarize.ts';

/**
 * The note line naming everything the methods of a table fitted and on what (their typed
 * `settings.fitted`), methods that share a fitted part listed together; no line when no method
 * fitted anything.
 */
export function fitNotes(summaries: readonly Pick<PipelineSummary, 'label' | 'settings'>[]): string[] {
  const byPart = new Map<string, string[]>();
  for (const s of summaries)
    for (const f of s.settings.fitted ?? []) {
      const key = `${f.part}: ${f.on}`;
      byPart.set(key, [...(byPart.get(key) ?? []), s.label]);
    }
  if (byPart.size === 0) return [];
  const parts = [...byPart].map(([what, labels]) => `${labels.join(', ')}: ${what}`);
  return [`Fitted on (never this suite's evaluated tasks): ${parts.join('; ')}.`];
}
