import { makePeriod, MONTH_NAMES, shiftPeriod } from './period.ts';
import { cached, runCache } from '../../util/run-scope.ts';

/**
 * Variable values of an English instruction: the parts that change from one run to the next
 * (period, money amounts, currency, document references). The pattern tier re-extracts these
 * from every new instruction instead of trusting a cached packet, which is how it avoids
 * serving last month's period or last run's amount.
 */

export interface InstructionVariables {
  /** Named values: period, period_2, prev_period (derived), amt, amt_2, ccy, ref, ref_2... */
  values: Record<string, string>;
  /** Names read from the text (derived ones such as prev_period excluded). */
  kinds: string[];
  /** Character spans of the text the values came from (removed before keyword matching). */
  spans: [number, number][];
}

const MONTHS = MONTH_NAMES.map((m) => m.toLowerCase());
const SYMBOL_CCY: ReadonlyMap<string, string> = new Map([
  ['£', 'GBP'],
  ['$', 'USD'],
  ['€', 'EUR'],
]);

const PERIOD_WORDS = new RegExp(`\\b(?:\\d{1,2}(?:st|nd|rd|th)?\\s+)?(${MONTHS.join('|')})\\s+(\\d{4})\\b`, 'gi');
const PERIOD_ISO = /\b(\d{4})-(0[1-9]|1[0-2])\b/g;
const AMOUNT_SYMBOL = /([£$€])\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d{1,2})?/g;
const AMOUNT_CODE = /\b(\d{1,3}(?:,\d{3})+|\d+)(\.\d{1,2})?\s?(GBP|USD|EUR)\b/g;
const REFERENCE = /\b[A-Z]{2,5}-\d+\b/g;

function name(base: string, n: number): string {
  return n === 0 ? base : `${base}_${n + 1}`;
}

// Streams repeat the same texts many times; extraction is pure, so remember recent answers.
const VARIABLES = runCache('AACP instruction variables by text', () => new Map<string, InstructionVariables>());

/** Pure and memoised: treat the result as read-only. */
export function extractVariables(text: string): InstructionVariables {
  const memo = cached(VARIABLES);
  const known = memo.get(text);
  if (known) return known;
  if (memo.size > 10_000) memo.clear();
  const result = extract(text);
  memo.set(text, result);
  return result;
}

function extract(text: string): InstructionVariables {
  const found: { kind: 'period' | 'amt' | 'ref'; value: string; at: number; end: number; ccy?: string }[] = [];
  for (const m of text.matchAll(PERIOD_WORDS)) {
    found.push({
      kind: 'period',
      value: makePeriod(Number(m[2]), MONTHS.indexOf(m[1]!.toLowerCase()) + 1),
      at: m.index,
      end: m.index + m[0].length,
    });
  }
  for (const m of text.matchAll(PERIOD_ISO)) found.push({ kind: 'period', value: m[0], at: m.index, end: m.index + m[0].length });
  for (const m of text.matchAll(AMOUNT_SYMBOL)) {
    found.push({
      kind: 'amt',
      value: m[2]!.replaceAll(',', '') + (m[3] ?? ''),
      ccy: SYMBOL_CCY.get(m[1]!),
      at: m.index,
      end: m.index + m[0].length,
    });
  }
  for (const m of text.matchAll(AMOUNT_CODE)) {
    found.push({ kind: 'amt', value: m[1]!.replaceAll(',', '') + (m[2] ?? ''), ccy: m[3], at: m.index, end: m.index + m[0].length });
  }
  for (const m of text.matchAll(REFERENCE)) found.push({ kind: 'ref', value: m[0], at: m.index, end: m.index + m[0].length });
  found.sort((a, b) => a.at - b.at);

  const values = new Map<string, string>();
  const counts = { period: 0, amt: 0, ref: 0 };
  const spans: [number, number][] = [];
  for (const f of found) {
    // Overlapping matches (e.g. an ISO period inside a reference) keep the first one.
    if (spans.some(([s, e]) => f.at < e && f.end > s)) continue;
    spans.push([f.at, f.end]);
    values.set(name(f.kind, counts[f.kind]++), f.value);
    if (f.ccy && !values.has('ccy')) values.set('ccy', f.ccy);
  }
  const kinds = [...values.keys()];
  const period = values.get('period');
  if (period !== undefined) values.set('prev_period', shiftPeriod(period, -1));
  return { values: Object.fromEntries(values), kinds, spans };
}

/** The text with variable spans blanked out (so keywords ignore months, years and amounts). */
export function withoutVariables(text: string, spans: readonly [number, number][]): string {
  let out = text;
  for (const [s, e] of [...spans].sort((a, b) => b[0] - a[0])) out = `${out.slice(0, s)} ${out.slice(e)}`;
  return out;
}
