import type ExcelJS from 'exceljs';
import type JSZip from 'jszip';
import { importOptional, requireOptional } from '../util/optional-package.ts';
import type { RunFact } from './run-info.ts';
import { KIND_LEGEND, KIND_TINT } from './kinds.ts';
import { formatCell, headerText, PROJECTED_MARK, type Column, type Table } from '../table/table.ts';
import { ownValue } from '../util/json.ts';

/**
 * One workbook for the whole report: an "About" sheet (run, what measured/projected/published
 * mean, the sheet list), then one sheet per table: title in row 1, header in row 2 (projected
 * headers end in †), data from row 3 with number formats matching each column's digits, notes
 * under the table.
 */
export const ABOUT_SHEET = 'About';
export const HEADER_ROW = 2;

/**
 * The workbook's bytes. `stamp` (the run's finish time; the zip epoch without one) is the
 * only time written: as the document's created/modified properties and as every zip entry's
 * date, which exceljs (through JSZip) would otherwise set to the time of writing, so the
 * same results give the same file.
 */
export async function workbookBuffer(tables: readonly Table[], facts: readonly RunFact[], stamp: Date = ZIP_EPOCH): Promise<Buffer> {
  // Optional dependencies, loaded when a workbook is written: a light install still starts every command.
  const { default: Excel } = requireOptional(await importOptional<{ default: typeof ExcelJS }>('exceljs'), 'exceljs', 'the workbook');
  const { default: Zip } = requireOptional(await importOptional<{ default: typeof JSZip }>('jszip'), 'jszip', 'the workbook');
  const wb = new Excel.Workbook();
  wb.creator = 'tooltax';
  wb.created = stamp;
  wb.modified = stamp;
  const names = sheetNames(tables);
  addAbout(wb, tables, names, facts);
  tables.forEach((t, i) => addTableSheet(wb, t, names[i]!));
  const zip = await Zip.loadAsync(await wb.xlsx.writeBuffer());
  zip.forEach((_, entry) => (entry.date = stamp));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** 1980-01-01 UTC, the earliest date a zip entry can hold. */
const ZIP_EPOCH = new Date(Date.UTC(1980, 0, 1));

/** Excel number format for a column: thousands separators and the column's decimals; signed for differences. */
export function numberFormat(c: Column): string {
  const digits = c.digits ?? 0;
  const base = digits > 0 ? `#,##0.${'0'.repeat(digits)}` : '#,##0';
  return c.kind === 'difference' ? `+${base};-${base};${base}` : base;
}

function addTableSheet(wb: ExcelJS.Workbook, t: Table, name: string): void {
  const ws = wb.addWorksheet(name, { views: [{ state: 'frozen', ySplit: HEADER_ROW }] });
  ws.getCell(1, 1).value = t.title;
  ws.getCell(1, 1).font = { bold: true, size: 13 };
  t.columns.forEach((c, j) => {
    const cell = ws.getCell(HEADER_ROW, j + 1);
    cell.value = headerText(c);
    cell.font = { bold: true, italic: c.kind === 'projected' };
    cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: `FF${KIND_TINT[c.kind]}` } };
    cell.alignment = { horizontal: c.kind === 'label' ? 'left' : 'right', vertical: 'bottom', wrapText: true };
    cell.border = { bottom: { style: 'thin' } };
    cell.note = `${c.kind}${c.kind === 'projected' ? ` (${PROJECTED_MARK}): from a parameterised model, not measured` : ''}`;
  });
  t.rows.forEach((r, i) => {
    t.columns.forEach((c, j) => {
      const v = ownValue(r, c.key);
      const cell = ws.getCell(HEADER_ROW + 1 + i, j + 1);
      if (typeof v === 'number' && Number.isFinite(v)) {
        cell.value = v;
        cell.numFmt = numberFormat(c);
      } else if (typeof v === 'string') {
        cell.value = v;
        if (c.kind !== 'label') cell.alignment = { horizontal: 'right' };
      }
      if (c.kind === 'projected') cell.font = { italic: true };
    });
  });
  let row = HEADER_ROW + t.rows.length + 2;
  for (const note of t.notes ?? []) {
    ws.getCell(row, 1).value = note;
    ws.getCell(row++, 1).font = { italic: true, color: { argb: 'FF555555' } };
  }
  if (t.columns.some((c) => c.kind === 'projected')) {
    ws.getCell(row, 1).value = `${PROJECTED_MARK} projected: from a parameterised model, not measured (see the ${ABOUT_SHEET} sheet).`;
    ws.getCell(row, 1).font = { italic: true, color: { argb: 'FF9C5700' } };
  }
  t.columns.forEach((c, j) => {
    const texts = [headerText(c), ...t.rows.map((r) => formatCell(ownValue(r, c.key), c))];
    ws.getColumn(j + 1).width = Math.min(40, Math.max(8, ...texts.map((s) => s.length + 2)));
  });
}

function addAbout(wb: ExcelJS.Workbook, tables: readonly Table[], names: readonly string[], facts: readonly RunFact[]): void {
  const ws = wb.addWorksheet(ABOUT_SHEET);
  ws.getColumn(1).width = 22;
  ws.getColumn(2).width = 110;
  const add = (a: string, b = '', bold = false) => {
    const r = ws.addRow([a, b]);
    if (bold) r.font = { bold: true };
    r.getCell(2).alignment = { wrapText: true, vertical: 'top' };
    r.getCell(1).alignment = { vertical: 'top' };
    return r;
  };
  ws.addRow(['tooltax results']).font = { bold: true, size: 14 };
  add('', 'Tokens that MCP tool lists and agent protocols burn in an LLM prompt. One sheet per result table.');
  add('');
  add('Run', '', true);
  for (const f of facts) add(f.label, f.value);
  add('');
  add('Measured vs projected', '', true);
  add(
    '',
    `Measured numbers come from this run. Projected numbers (columns marked ${PROJECTED_MARK}) come from a parameterised model and are not measurements. Published numbers are the source documents' figures, printed beside ours.`,
  );
  for (const k of KIND_LEGEND) {
    const r = add(k.name, k.meaning);
    r.getCell(1).fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: `FF${KIND_TINT[k.kind]}` } };
  }
  add('');
  add('Sheets', '', true);
  tables.forEach((t, i) => {
    const r = ws.addRow([{ text: names[i]!, hyperlink: `#'${names[i]!}'!A1` }, t.title]);
    r.getCell(1).font = { color: { argb: 'FF0563C1' }, underline: true };
  });
}

/** Sheet names from table ids: Excel's 31 characters, no []:*?/\ , unique, never "About"/"History". */
export function sheetNames(tables: readonly Table[]): string[] {
  const used = new Set([ABOUT_SHEET.toLowerCase(), 'history']);
  return tables.map((t) => {
    const base = t.id.replace(/[[\]:*?/\\']/g, '_').slice(0, 31) || 'table';
    let name = base;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base.slice(0, 31 - `~${n}`.length)}~${n}`;
    used.add(name.toLowerCase());
    return name;
  });
}
