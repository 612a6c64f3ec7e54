import { REAL_SUITE, SYNTHETIC_SUITE } from '../table/suites.ts';
import type { Table } from '../table/table.ts';

/** How much higher a method's recall may be on the synthetic suite than on the real one before the tables say so. */
export const RECALL_GAP_NOTED = 0.1;

/**
 * The suites' Table 3 halves with a note, when a method's recall on the synthetic suite exceeds
 * its recall on the real suite by more than RECALL_GAP_NOTED: both numbers, per method. Other
 * tables are returned as they are; without both measured tables nothing changes.
 */
export function withRecallGapNotes(tables: readonly Table[]): Table[] {
  const synthetic = tables.find((t) => t.id === SYNTHETIC_SUITE.measuredTable);
  const real = tables.find((t) => t.id === REAL_SUITE.measuredTable);
  if (!synthetic || !real) return [...tables];
  const gaps: string[] = [];
  for (const row of synthetic.rows) {
    const other = real.rows.find((r) => r.pipeline === row.pipeline);
    const [a, b] = [row.recall, other?.recall];
    if (typeof a === 'number' && typeof b === 'number' && a - b > RECALL_GAP_NOTED)
      gaps.push(`${String(row.method)} ${a.toFixed(3)} → ${b.toFixed(3)}`);
  }
  if (gaps.length === 0) return [...tables];
  const note = `Recall falls by more than ${RECALL_GAP_NOTED.toFixed(2)} from the synthetic suite to the real one (synthetic → real): ${gaps.join('; ')}. What is built on recall (projected success, quality) is flattered on the synthetic suite for these methods.`;
  const noted = new Set([SYNTHETIC_SUITE, REAL_SUITE].flatMap((s) => [s.measuredTable, s.projectedTable]));
  return tables.map((t) => (noted.has(t.id) ? { ...t, notes: [...(t.notes ?? []), note] } : t));
}
