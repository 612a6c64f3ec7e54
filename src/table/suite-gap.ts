import { SUITES, type Suite } from './suites.ts';
import type { Table } from './table.ts';

/** How much higher a method's recall may be on the synthetic suite than on a fixed one before the tables say so. */
export const RECALL_GAP_NOTED = 0.1;

/**
 * The suites' Table 3 halves with a note, when a method's recall on the run's own (synthetic)
 * suite exceeds its recall on a fixed suite with main tables (src/table/suites.ts; by default
 * the real one) by more than RECALL_GAP_NOTED: both numbers, per method. Other tables are
 * returned as they are; without both measured tables nothing changes.
 */
export function withRecallGapNotes(tables: readonly Table[], suites: readonly Suite[] = SUITES): Table[] {
  const own = suites.find((s) => !s.data);
  const synthetic = own && tables.find((t) => t.id === own.measuredTable);
  if (!own || !synthetic) return [...tables];
  const notes = new Map<string, string[]>();
  for (const suite of suites.filter((s) => s.data && s.mainTables)) {
    const note = gapNote(
      synthetic,
      tables.find((t) => t.id === suite.measuredTable),
      suite,
    );
    if (!note) continue;
    for (const id of [own, suite].flatMap((s) => [s.measuredTable, s.projectedTable])) notes.set(id, [...(notes.get(id) ?? []), note]);
  }
  return tables.map((t) => (notes.has(t.id) ? { ...t, notes: [...(t.notes ?? []), ...notes.get(t.id)!] } : t));
}

/** The note on one fixed suite's recall against the synthetic suite's, when a method falls by more than RECALL_GAP_NOTED. */
function gapNote(synthetic: Table, fixed: Table | undefined, suite: Suite): string | undefined {
  if (!fixed) return undefined;
  const gaps: string[] = [];
  for (const row of synthetic.rows) {
    const other = fixed.rows.find((r) => r.pipeline === row.pipeline);
    const [a, b] = [row.recall, other?.recall];
    if (typeof a === 'number' && typeof b === 'number' && a - b > RECALL_GAP_NOTED)
      gaps.push(`${String(row.method)} ${a.toFixed(3)} → ${b.toFixed(3)}`);
  }
  if (gaps.length === 0) return undefined;
  return `Recall falls by more than ${RECALL_GAP_NOTED.toFixed(2)} from the synthetic suite to the ${suite.id} one (synthetic → ${suite.id}): ${gaps.join('; ')}. What is built on recall (projected success, quality) is flattered on the synthetic suite for these methods.`;
}
