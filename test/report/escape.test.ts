import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { escapeMarkdownText, neutraliseCsvCell } from '../../src/report/escape.ts';
import { tableToCsv, tableToMarkdown } from '../../src/report/table-text.ts';
import type { Table } from '../../src/table/table.ts';

const hostile: Table = {
  id: 'hostile',
  title: 'Footprint of <script>alert(1)</script>',
  columns: [
    { key: 'server', header: 'server', kind: 'label' },
    { key: 'diff', header: 'Δ', kind: 'difference' },
  ],
  rows: [
    { server: '=HYPERLINK("http://evil.invalid","x")', diff: -12.5 },
    { server: '+1+2', diff: 3 },
    { server: '-2+3', diff: 0 },
    { server: '@SUM(A1)', diff: 1 },
    { server: '\tcmd', diff: 1 },
    { server: '\rcmd', diff: 1 },
    { server: 'github <img src=x onerror=alert(1)>', diff: 1 },
    { server: 'rho < 0.3 — plain', diff: 1 },
  ],
  notes: ['tool <b>bold</b> text'],
};

describe('escaping tool text in outputs', () => {
  it('neutralises CSV cells a spreadsheet would run as formulas (OWASP), keeps numbers', () => {
    const rows = parse(tableToCsv(hostile)) as string[][];
    const servers = rows.slice(1).map((r) => r[0]!);
    for (const s of servers.slice(0, 6)) expect(s.startsWith("'")).toBe(true);
    expect(servers[0]).toBe('\'=HYPERLINK("http://evil.invalid","x")');
    expect(rows[1]![1]).toBe('-12.5');
    expect(servers[7]).toBe('rho < 0.3 — plain');
    expect(neutraliseCsvCell(-3)).toBe(-3);
  });

  it('keeps HTML out of Markdown: tags in titles, cells and notes are escaped, comparisons are not', () => {
    const md = tableToMarkdown(hostile);
    expect(md).not.toMatch(/<script|<img|<b>|<\/script/);
    expect(md).toContain('&lt;script>alert(1)&lt;/script>');
    expect(md).toContain('rho < 0.3');
    expect(escapeMarkdownText('a <!-- b --> <http://x>')).toBe('a &lt;!-- b --> &lt;http://x>');
  });
});
