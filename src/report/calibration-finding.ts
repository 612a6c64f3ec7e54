import type { Table } from '../table/table.ts';

/** The calibration table's id (src/studies/search-calibration/study.ts). */
const CALIBRATION_TABLE = 'search-calibration';

/**
 * The calibration table in one sentence for the findings: the median absolute difference from
 * the published figures of each part (calibration, validation), computed from the table's rows,
 * and its largest validation miss. Undefined when the run has no calibration table.
 */
export function calibrationSentence(tables: readonly Table[]): string | undefined {
  const table = tables.find((t) => t.id === CALIBRATION_TABLE);
  if (!table) return undefined;
  const rows = table.rows.filter((r) => typeof r.difference === 'number');
  const part = (p: string) => rows.filter((r) => r.part === p).map((r) => Math.abs(r.difference as number));
  const [cal, val] = [part('calibration'), part('validation')];
  if (!cal.length && !val.length) return undefined;
  const worst = rows
    .filter((r) => r.part === 'validation')
    .sort((a, b) => Math.abs(b.difference as number) - Math.abs(a.difference as number))[0];
  const med = (xs: number[]) => (xs.length ? `${median(xs).toFixed(1)} pp over ${xs.length}` : 'none');
  return `Against published measured figures (calibration table), the emulation's median absolute error is ${med(cal)} calibration figures (fitted) and ${med(val)} validation figures (never fitted)${worst ? `; the largest validation miss: ${String(worst.figure)}, ${(worst.difference as number) > 0 ? '+' : ''}${(worst.difference as number).toFixed(1)} pp` : ''}.`;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
