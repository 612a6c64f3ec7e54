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
  /**
   * A published column, or a difference from one, whose figures were published for one catalog
   * (its name): a run on another catalog drops the column (`publishedOnlyFor`).
   */
  publishedFor?: string;
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

const newNumberFormat = (digits: number) =>
  new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

// One formatter per digit count, made once: toLocaleString with options builds a new
// Intl.NumberFormat on every call (same output; the reports format tens of thousands of cells).
// A constant table, not a cache: it holds nothing of a run.
const NUMBER_FORMATS: readonly Intl.NumberFormat[] = Array.from({ length: 21 }, (_, digits) => newNumberFormat(digits));
function numberFormat(digits: number): Intl.NumberFormat {
  return NUMBER_FORMATS[digits] ?? newNumberFormat(digits);
}

export function formatCell(value: Cell, c: Column): string {
  if (value === null || value === undefined || (typeof value === 'number' && Number.isNaN(value))) return '—';
  if (typeof value === 'string') return value;
  const text = numberFormat(c.digits ?? 0).format(value);
  return c.kind === 'difference' && value > 0 ? `+${text}` : text;
}
