import { stringify } from 'csv-stringify/sync';
import { formatCell, headerText, type Table } from '../table/table.ts';
import { markdownCell, markdownLine, neutraliseCsvCell } from './escape.ts';
import { ownValue } from '../util/json.ts';

export function tableToMarkdown(t: Table): string {
  const align = t.columns.map((c) => (c.kind === 'label' ? '---' : '---:'));
  const lines = [
    `### ${markdownLine(t.title)}`,
    '',
    `| ${t.columns.map((c) => markdownCell(headerText(c))).join(' | ')} |`,
    `| ${align.join(' | ')} |`,
    ...t.rows.map((r) => `| ${t.columns.map((c) => markdownCell(formatCell(ownValue(r, c.key), c))).join(' | ')} |`),
  ];
  if (t.notes?.length) lines.push('', ...t.notes.map((n) => `- ${markdownLine(n)}`));
  return `${lines.join('\n')}\n`;
}

/** CSV with raw numbers (no thousands separators) and a header naming projections. */
export function tableToCsv(t: Table): string {
  return stringify([
    t.columns.map((c) => neutraliseCsvCell(headerText(c))),
    ...t.rows.map((r) => t.columns.map((c) => neutraliseCsvCell(ownValue(r, c.key) ?? ''))),
  ]);
}
