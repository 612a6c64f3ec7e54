import { stringify } from 'csv-stringify/sync';

/**
 * A report table. Every column says what kind of number it holds, so Markdown, CSV, XLSX and
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

/** Pipes (AACP packets are full of them) and newlines would break a Markdown row. */
function markdownCell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

export function tableToMarkdown(t: Table): string {
  const align = t.columns.map((c) => (c.kind === 'label' ? '---' : '---:'));
  const lines = [
    `### ${t.title}`,
    '',
    `| ${t.columns.map(headerText).join(' | ')} |`,
    `| ${align.join(' | ')} |`,
    ...t.rows.map((r) => `| ${t.columns.map((c) => markdownCell(formatCell(r[c.key], c))).join(' | ')} |`),
  ];
  if (t.notes?.length) lines.push('', ...t.notes.map((n) => `- ${n}`));
  return `${lines.join('\n')}\n`;
}

/** CSV with raw numbers (no thousands separators) and a header naming projections. */
export function tableToCsv(t: Table): string {
  return stringify([t.columns.map(headerText), ...t.rows.map((r) => t.columns.map((c) => r[c.key] ?? ''))]);
}
