import { ChartSkip } from './chart.ts';
import { formatCell, headerText, PROJECTED_MARK, type Cell, type Table } from '../../table/table.ts';

/** Helpers for spec builders: check a table's columns and read its cells as chart data. */

export function hasColumns(t: Table, keys: readonly string[]): boolean {
  return keys.every((k) => t.columns.some((c) => c.key === k));
}

export function requireColumns(t: Table, keys: readonly string[]): void {
  const missing = keys.filter((k) => !t.columns.some((c) => c.key === k));
  if (missing.length) throw new ChartSkip(`table ${t.id} has no column ${missing.join(', ')} (expected columns: ${keys.join(', ')})`);
}

/** The first of `keys` that the table has as a column (for columns with more than one accepted name). */
export function firstKey(t: Table, keys: readonly string[]): string {
  const key = keys.find((k) => t.columns.some((c) => c.key === k));
  if (!key) throw new ChartSkip(`table ${t.id} has no column ${keys.join(' or ')}`);
  return key;
}

/** Axis title of a column: its header, with † when the column is a projection. */
export function axisTitle(t: Table, key: string): string {
  const c = t.columns.find((x) => x.key === key);
  return c ? headerText(c) : key;
}

/** Appends † unless the title already carries it. */
export function withProjectedMark(title: string): string {
  return title.includes(PROJECTED_MARK) ? title : `${title} ${PROJECTED_MARK}`;
}

/**
 * A number from a cell: numbers as they are, and strings that start with a number such as
 * "47,312 ± 210" (published figures are stored as text). Anything else is undefined.
 */
export function toNumber(v: Cell): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const m = /^\s*([+-−]?[\d,]*\.?\d+)/.exec(v);
  if (!m) return undefined;
  const n = Number(m[1]!.replace(/,/g, '').replace('−', '-'));
  return Number.isFinite(n) ? n : undefined;
}

/**
 * A cell exactly as its table prints it (the column's digits; text such as "47,312 ± 210" as
 * stored), so a chart's tooltip shows the same figure as the table. null for an empty cell.
 */
export function cellText(t: Table, key: string, v: Cell): string | null {
  if (v === null || v === undefined) return null;
  const c = t.columns.find((x) => x.key === key);
  return c ? formatCell(v, c) : String(v);
}

export function toLabel(v: Cell): string {
  return v === null || v === undefined ? '' : String(v);
}
