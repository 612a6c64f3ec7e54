import ExcelJS from 'exceljs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ABOUT_SHEET, HEADER_ROW, numberFormat, sheetNames, workbookBuffer } from '../../src/report/xlsx.ts';
import type { Table } from '../../src/table/table.ts';
import { FIXTURE_TABLES } from './fixture.ts';
import { renderFixture } from './render-fixture.ts';

let wb: ExcelJS.Workbook;

beforeAll(async () => {
  const { reportsDir } = await renderFixture();
  wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(join(reportsDir, 'tooltax.xlsx'));
});

const headerRow = (ws: ExcelJS.Worksheet) => (ws.getRow(HEADER_ROW).values as unknown[]).slice(1);

describe('reports/tooltax.xlsx', () => {
  it('has an About sheet first, then one sheet per table in results order', () => {
    expect(wb.worksheets.map((w) => w.name)).toEqual([ABOUT_SHEET, ...FIXTURE_TABLES.map((t) => t.id)]);
  });

  it('About says what measured, projected † and published mean, and what ran', () => {
    const text = aboutText(wb.getWorksheet(ABOUT_SHEET)!);
    expect(text).toMatch(/Projected numbers \(columns marked †\) come from a parameterised model and are not measurements/);
    expect(text).toMatch(/measured/);
    expect(text).toMatch(/published/);
    for (const fact of ['synthetic-120', 'cl100k_base', 'use-lite', 'exact-flat-ip', '0.28', '42, 43, 44']) expect(text).toContain(fact);
  });

  it('puts the title in row 1 and the headers in row 2, projected headers marked †', () => {
    const ws = wb.getWorksheet('table3-projected')!;
    expect(ws.getCell(1, 1).value).toBe('Table 3 (projected part): success, latency, cost');
    expect(headerRow(ws)).toEqual(['method', 'success % †', 'published', 'context window']);
    expect(ws.getCell(HEADER_ROW, 2).font?.bold).toBe(true);
    expect(headerRow(wb.getWorksheet('table3-measured')!)).toEqual(['method', 'tool tokens/turn', 'published', 'Δ %', 'rho T30']);
  });

  it('keeps numbers as numbers, formatted with the column digits', () => {
    const ws = wb.getWorksheet('table3-measured')!;
    const lazy = ws.getRow(HEADER_ROW + 3); // B4 CLI Lazy
    expect(lazy.getCell(1).value).toBe('B4 CLI Lazy');
    expect(lazy.getCell(2).value).toBe(4163.18);
    expect(lazy.getCell(2).numFmt).toBe('#,##0');
    expect(lazy.getCell(3).value).toBe('480 ± 30');
    expect(lazy.getCell(4).value).toBe(767.3);
    expect(lazy.getCell(4).numFmt).toBe('+#,##0.0;-#,##0.0;#,##0.0');
    expect(lazy.getCell(5).numFmt).toBe('#,##0.00');
    const projected = wb.getWorksheet('table3-projected')!.getRow(HEADER_ROW + 1);
    expect(projected.getCell(2).value).toBe(71.3);
    expect(projected.getCell(2).numFmt).toBe('#,##0.0');
  });

  it('writes the notes under the table, and a † line on sheets with projections', () => {
    const ws = wb.getWorksheet('table3-projected')!;
    const below = [HEADER_ROW + 5, HEADER_ROW + 6, HEADER_ROW + 7].map((r) => ws.getCell(r, 1).value);
    expect(below[0]).toBeNull(); // one blank row after the 4 data rows
    expect(below[1]).toBe('Fixture: success is a projection from a parameterised model.');
    expect(String(below[2])).toMatch(/^† projected: from a parameterised model, not measured/);
  });
});

describe('xlsx helpers', () => {
  it('numberFormat follows digits and signs differences', () => {
    expect(numberFormat({ key: 'a', header: 'a', kind: 'measured' })).toBe('#,##0');
    expect(numberFormat({ key: 'a', header: 'a', kind: 'projected', digits: 3 })).toBe('#,##0.000');
    expect(numberFormat({ key: 'a', header: 'a', kind: 'difference', digits: 1 })).toBe('+#,##0.0;-#,##0.0;#,##0.0');
  });

  it('sheetNames fit Excel: 31 characters, no []:*?/\\, unique, never About', () => {
    const t = (id: string): Table => ({ id, title: id, columns: [], rows: [] });
    const names = sheetNames([t('about'), t('a/b:c'), t('x'.repeat(40)), t('x'.repeat(35))]);
    expect(names[0]).not.toBe('about');
    expect(names[1]).toBe('a_b_c');
    expect(names.every((n) => n.length <= 31 && !/[[\]:*?/\\]/.test(n))).toBe(true);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
  });
});

function aboutText(ws: ExcelJS.Worksheet): string {
  const lines: string[] = [];
  ws.eachRow((row) =>
    lines.push(
      (row.values as unknown[])
        .slice(1)
        .map((v) => (v && typeof v === 'object' && 'text' in v ? (v as { text: string }).text : String(v ?? '')))
        .join(' | '),
    ),
  );
  return lines.join('\n');
}

describe('workbook bytes', () => {
  afterEach(() => vi.useRealTimers());

  it('are the same for the same tables whenever they are written: the run time is the only date in them', async () => {
    const stamp = new Date('2026-03-04T05:06:08Z');
    const facts = [{ label: 'time', value: 'fixture' }];
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const first = await workbookBuffer(FIXTURE_TABLES, facts, stamp);
    vi.setSystemTime(new Date('2031-06-07T08:09:10Z'));
    const second = await workbookBuffer(FIXTURE_TABLES, facts, stamp);
    expect(second.equals(first)).toBe(true);
    const zip = await JSZip.loadAsync(first);
    const dates = new Set(Object.values(zip.files).map((f) => f.date.toISOString()));
    expect([...dates]).toEqual([stamp.toISOString()]);
    expect(await zip.file('docProps/core.xml')!.async('string')).toContain('2026-03-04T05:06:08Z');
  });
});
