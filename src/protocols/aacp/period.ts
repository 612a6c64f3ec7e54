/** Calendar months as AACP writes them (YYYY-MM, draft §4.2 "period"). */

export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

function isPeriod(s: string): boolean {
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(s);
}

export function makePeriod(year: number, month1: number): string {
  return `${String(year).padStart(4, '0')}-${String(month1).padStart(2, '0')}`;
}

function split(period: string): [number, number] {
  if (!isPeriod(period)) throw new Error(`not a YYYY-MM period: ${JSON.stringify(period)}`);
  return [Number(period.slice(0, 4)), Number(period.slice(5, 7))];
}

/** Shift by whole months (negative goes back). */
export function shiftPeriod(period: string, months: number): string {
  const [y, m] = split(period);
  const index = y * 12 + (m - 1) + months;
  return makePeriod(Math.floor(index / 12), (index % 12) + 1);
}

/** "August 2024". */
export function periodLabel(period: string): string {
  const [y, m] = split(period);
  return `${MONTH_NAMES[m - 1]} ${y}`;
}

/** Last calendar day, as English: "31 August 2024". */
export function periodEndLabel(period: string): string {
  const [y, m] = split(period);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${last} ${MONTH_NAMES[m - 1]} ${y}`;
}
