import type { Table } from './table.ts';

/**
 * The table as a run on `catalog` may print it: without the published columns (and differences
 * from them) that were published for another catalog, with a note saying so (unless `note` is
 * false). A table with none is returned as it is.
 */
export function publishedOnlyFor(table: Table, catalog: string, { note = true } = {}): Table {
  const foreign = table.columns.filter((c) => c.publishedFor !== undefined && c.publishedFor !== catalog);
  if (foreign.length === 0) return table;
  const dropped = new Set(foreign.map((c) => c.key));
  const catalogs = [...new Set(foreign.map((c) => c.publishedFor))].join(', ');
  return {
    ...table,
    columns: table.columns.filter((c) => !dropped.has(c.key)),
    rows: table.rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !dropped.has(k)))),
    notes: [
      ...(table.notes ?? []),
      ...(note ? [`No published column: the source's figures were published for the ${catalogs} catalog, not ${catalog}.`] : []),
    ],
  };
}
