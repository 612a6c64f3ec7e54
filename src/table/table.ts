/**
 * A result table: what every study and the bench produce and every report renders. Every column says what kind of number it holds, so Markdown, CSV, XLSX and
 * HTML renderings can mark projections (†) and published figures the same way.
 */
export type ColumnKind = 'label' | 'measured' | 'projected' | 'published' | 'difference' | 'parameter';

export interface Column {
  key: string;
  header: string;
  kind: ColumnKind;
  /** Decimal places for numbers (default 0). */
  digits?: number;
}

export type Cell = string | number | null | undefined;

export interface Table {
  id: string;
  title: string;
  columns: Column[];
  rows: Record<string, Cell>[];
  /** Short lines printed under the table: sources, caveats. */
  notes?: string[];
}

export const PROJECTED_MARK = '†';

export function headerText(c: Column): string {
  return c.kind === 'projected' ? `${c.header} ${PROJECTED_MARK}` : c.header;
}

export function formatCell(value: Cell, c: Column): string {
  if (value === null || value === undefined || (typeof value === 'number' && Number.isNaN(value))) return '—';
  if (typeof value === 'string') return value;
  const digits = c.digits ?? 0;
  const text = value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return c.kind === 'difference' && value > 0 ? `+${text}` : text;
}
