import type { Suite } from '../../table/suites.ts';
import type { Table } from '../../table/table.ts';

/**
 * A table of the synthetic suite's shape, made for a fixed suite (the real one by default): its own id, the suite in the
 * title, and no published or difference columns (the paper's figures are about its own
 * 120-tool testbed; beside real servers they would compare unlike with unlike).
 */
export function forSuite(table: Table, suite: Suite, id: string, moreNotes: readonly string[] = []): Table {
  const columns = table.columns.filter((c) => c.kind !== 'published' && c.kind !== 'difference');
  const keep = new Set(columns.map((c) => c.key));
  return {
    id,
    title: `${table.title} — ${suite.name}`,
    columns,
    rows: table.rows.map((r) =>
      Object.fromEntries(Object.entries(r).filter(([k]) => keep.has(k) || !table.columns.some((c) => c.key === k))),
    ),
    notes: [
      ...(table.notes ?? []),
      ...moreNotes,
      `No published column: the paper's figures are for its own 120-tool testbed, not these servers.`,
    ],
  };
}
