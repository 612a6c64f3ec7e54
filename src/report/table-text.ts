import { stringify } from 'csv-stringify/sync';
import { formatCell, headerText, type Table } from '../table/table.ts';
import { escapeMarkdownText, neutraliseCsvCell } from './escape.ts';
import { ownValue } from '../util/json.ts';

/** Pipes (AACP packets are full of them) and newlines would break a Markdown row. */
function markdownCell(text: string): string {
  return escapeMarkdownText(text).replaceAll('|', '\\|').replaceAll('\n', ' ');
}

export function tableToMarkdown(t: Table): string {
  const align = t.columns.map((c) => (c.kind === 'label' ? '---' : '---:'));
  const lines = [
    `### ${escapeMarkdownText(t.title)}`,
    '',
    `| ${t.columns.map(headerText).join(' | ')} |`,
    `| ${align.join(' | ')} |`,
    ...t.rows.map((r) => `| ${t.columns.map((c) => markdownCell(formatCell(ownValue(r, c.key), c))).join(' | ')} |`),
  ];
  if (t.notes?.length) lines.push('', ...t.notes.map((n) => `- ${escapeMarkdownText(n)}`));
  return `${lines.join('\n')}\n`;
}

/** CSV with raw numbers (no thousands separators) and a header naming projections. */
export function tableToCsv(t: Table): string {
  return stringify([t.columns.map(headerText), ...t.rows.map((r) => t.columns.map((c) => neutraliseCsvCell(ownValue(r, c.key) ?? '')))]);
}
