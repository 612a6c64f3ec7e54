import type { InstructionVariables } from './variables.ts';
import { encodePayrollHop, type PayrollHop, type PayrollRunInput } from './workflows/payroll.ts';

/**
 * The built-in pattern set of Tier 2 (draft §6.3: "a built-in pattern set ... routes to
 * rule-based encoding"). Each pattern names the keywords of one known payroll hop and builds the
 * structured input for the rule-based encoder from the variables of the NEW instruction, so the
 * packet always carries the instruction's own period. A pattern that lacks a value it needs
 * declines (undefined) and the instruction falls through to the next tier.
 */

export interface BuiltinPattern {
  id: string;
  domain: string;
  keywords: readonly string[];
  encode(english: string, vars: InstructionVariables, returnAgent: string): string | undefined;
}

function payroll(hop: PayrollHop, keywords: string[], needsPeriod: boolean): BuiltinPattern {
  return {
    id: `payroll/${hop}`,
    domain: 'HR',
    keywords,
    encode(english, vars, returnAgent) {
      if (needsPeriod && vars.values.period === undefined) return undefined;
      const input: PayrollRunInput = { period: vars.values.period ?? '2000-01', returnAgent };
      const version = /\bversion\s+(\d+)\b/i.exec(english);
      if (version) input.rules = `payroll_v${version[1]}`;
      return encodePayrollHop(hop, input);
    },
  };
}

export const BUILTIN_PATTERNS: readonly BuiltinPattern[] = [
  payroll('fetch-employees', ['salary', 'record', 'active', 'employee', 'department', 'pension', 'json'], true),
  payroll('fetch-budgets', ['budget', 'allocation', 'cost', 'centre', 'spend', 'approved'], true),
  payroll('merge-calculate', ['merge', 'dataset', 'pension', 'paye', 'deduction', 'budget', 'rule'], false),
  payroll('generate-report', ['payroll', 'report', 'template', 'summary', 'department', 'anomaly', 'excel'], true),
  payroll('log-run', ['audit', 'record', 'payroll', 'orchestrator', 'agent', 'review'], false),
  payroll('send-report', ['email', 'payroll', 'report', 'attached', 'finance', 'director', 'review'], true),
];
