import { shiftPeriod } from '../period.ts';
import { emit, type EncodedHop } from './types.ts';

/**
 * Payroll rule-based encoder (draft §6.1: "PayrollEncoder, 6 coordination hops"). Hops 1, 3 and 5
 * reproduce the draft's §4.4 examples byte for byte; hops 2, 4 and 6 are this harness's design
 * in the same style (the draft prints no v1.1 packet for them). Following §4.2/§9, `fields:` is
 * left out where the receiving agent has default field definitions (the draft's hop-1 packet does
 * the same although its English lists the fields).
 */

export interface PayrollRunInput {
  /** YYYY-MM. */
  period: string;
  /** Agent receiving the results of hops 1-4 and 6. Draft: HR-Agent. */
  returnAgent?: string;
  /** Draft §4.4: rules:payroll_v2. */
  rules?: string;
  /** Draft §4.4: validate:budget_cc. */
  validateAgainst?: string;
  /** Audit record (hop 5); defaults are the draft's §4.4 example. */
  audit?: { actor?: string; chain?: readonly string[]; status?: string };
  /** Hop 6 recipients. */
  recipients?: readonly string[];
}

export const PAYROLL_HOPS = ['fetch-employees', 'fetch-budgets', 'merge-calculate', 'generate-report', 'log-run', 'send-report'] as const;
export type PayrollHop = (typeof PAYROLL_HOPS)[number];

const ret = (i: PayrollRunInput) => i.returnAgent ?? 'HR-Agent';

/** Hop 1. Draft §1/§4.4: FETCH|HR|return:HR-Agent|p:1|aacp:1.1|res:emp_salary|period:2024-08|filter:status=active|fmt:json */
export function fetchEmployees(i: PayrollRunInput): string {
  return emit({
    task: 'FETCH',
    dom: 'HR',
    return: ret(i),
    p: '1',
    res: 'emp_salary',
    period: i.period,
    filter: 'status=active',
    fmt: 'json',
  });
}

/** Hop 2: budget allocations by cost centre (year-to-date spend is in the FIN agent's default fields). */
function fetchBudgets(i: PayrollRunInput): string {
  return emit({ task: 'FETCH', dom: 'FIN', return: ret(i), p: '1', res: 'budget_cc', period: i.period, fmt: 'json' });
}

/** Hop 3. Draft §4.4: MERGE|HR|return:HR-Agent|p:1|aacp:1.1|rules:payroll_v2|validate:budget_cc */
export function mergeAndCalculate(i: PayrollRunInput): string {
  return emit({
    task: 'MERGE',
    dom: 'HR',
    return: ret(i),
    p: '1',
    extended: [
      ['rules', i.rules ?? 'payroll_v2'],
      ['validate', i.validateAgainst ?? 'budget_cc'],
    ],
  });
}

/** Hop 4: monthly report from the standard template, PDF and Excel, compared with last month. */
export function generateReport(i: PayrollRunInput): string {
  return emit({
    task: 'REPORT',
    dom: 'HR',
    return: ret(i),
    p: '2',
    period: i.period,
    fmt: 'pdf,xlsx',
    extended: [
      ['tmpl', 'payroll_monthly'],
      ['src_prev', shiftPeriod(i.period, -1)],
      ['highlight', 'anomalies'],
    ],
  });
}

/** Hop 5. Draft §4.4: LOG|HR|return:AUD-Agent|p:2|aacp:1.1|actor:ORCHESTRATOR|chain:HR-AGENT,FIN-AGENT,HR-AGENT,HR-AGENT|status:review_required */
export function logRun(i: PayrollRunInput): string {
  const a = i.audit ?? {};
  return emit({
    task: 'LOG',
    dom: 'HR',
    return: 'AUD-Agent',
    p: '2',
    extended: [
      ['actor', a.actor ?? 'ORCHESTRATOR'],
      ['chain', (a.chain ?? ['HR-AGENT', 'FIN-AGENT', 'HR-AGENT', 'HR-AGENT']).join(',')],
      ['status', a.status ?? 'review_required'],
    ],
  });
}

/** Hop 6: send the report to the directors, flagged for review. */
function sendReport(i: PayrollRunInput): string {
  return emit({
    task: 'SEND',
    dom: 'HR',
    return: ret(i),
    p: '2',
    period: i.period,
    extended: [
      ['to', (i.recipients ?? ['fin_director', 'hr_director']).join(',')],
      ['att', 'payroll_report.pdf'],
      ['flag_msg', 'review_required'],
    ],
  });
}

const ENCODERS: Record<PayrollHop, (i: PayrollRunInput) => string> = {
  'fetch-employees': fetchEmployees,
  'fetch-budgets': fetchBudgets,
  'merge-calculate': mergeAndCalculate,
  'generate-report': generateReport,
  'log-run': logRun,
  'send-report': sendReport,
};

export function encodePayrollHop(hop: PayrollHop, input: PayrollRunInput): string {
  return ENCODERS[hop](input);
}

export function encodePayrollRun(input: PayrollRunInput): EncodedHop[] {
  return PAYROLL_HOPS.map((hop) => ({ workflow: 'payroll', hop, packet: ENCODERS[hop](input) }));
}
