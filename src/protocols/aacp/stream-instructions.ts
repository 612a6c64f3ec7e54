import { periodLabel } from './period.ts';

/**
 * Instructions of the payroll stream simulation that no rule-based encoder knows: recurring
 * ad-hoc requests (a "novel pattern" each: same words, a new month or amount every time) and
 * one-off requests that are never repeated. Written for this harness.
 */

export interface NovelPattern {
  id: string;
  /** Relative frequency among novel requests. */
  weight: number;
  /** Whether the text carries a money amount (drawn per occurrence). */
  hasAmount: boolean;
  render(period: string, amount: number): string;
}

const gbp = (n: number) => `£${n.toLocaleString('en-GB')}`;

export const NOVEL_PATTERNS: readonly NovelPattern[] = [
  {
    id: 'pension-export',
    weight: 12,
    hasAmount: false,
    render: (p) =>
      `Export the auto-enrolment pension contributions for ${periodLabel(p)} as a CSV file so we can upload it to the pension provider.`,
  },
  {
    id: 'timesheet-reminder',
    weight: 5,
    hasAmount: false,
    render: () => 'Remind all line managers to approve their outstanding timesheets before the payroll cut-off.',
  },
  {
    id: 'bacs-check',
    weight: 3,
    hasAmount: false,
    render: () => 'Double-check that the BACS bank file totals match the payroll register before it is released.',
  },
  {
    id: 'holiday-accrual',
    weight: 6,
    hasAmount: false,
    render: (p) => `Recalculate the holiday pay accrual for ${periodLabel(p)} for everyone who changed their working hours.`,
  },
  {
    id: 'accrual-journal',
    weight: 4,
    hasAmount: true,
    render: (p, a) => `Post the ${periodLabel(p)} payroll accrual journal of ${gbp(a)} to the general ledger.`,
  },
  {
    id: 'bonus-signoff',
    weight: 3,
    hasAmount: true,
    render: (p, a) => `Check whether any bonus above ${gbp(a)} paid in ${periodLabel(p)} still needs a director's sign-off.`,
  },
  {
    id: 'p60-reminder',
    weight: 2.4,
    hasAmount: false,
    render: (p) => `Send the P60 reminder email to all leavers from ${periodLabel(p)}.`,
  },
  {
    id: 'ssp-reconcile',
    weight: 2,
    hasAmount: false,
    render: (p) => `Reconcile the statutory sick pay claims for ${periodLabel(p)} against the absence records.`,
  },
  { id: 'levy-return', weight: 1.7, hasAmount: false, render: (p) => `Submit the ${periodLabel(p)} apprenticeship levy return to HMRC.` },
  {
    id: 'headcount-summary',
    weight: 1.5,
    hasAmount: false,
    render: (p) => `Produce a headcount, starters and leavers summary for ${periodLabel(p)} for the board pack.`,
  },
  {
    id: 'ni-liability',
    weight: 1.3,
    hasAmount: true,
    render: (p, a) => `Calculate the employer National Insurance liability for ${periodLabel(p)}, which should come to about ${gbp(a)}.`,
  },
  {
    id: 'payslip-portal',
    weight: 1.2,
    hasAmount: false,
    render: (p) => `Issue the ${periodLabel(p)} payslips to the employee self-service portal.`,
  },
  {
    id: 'pension-deductions',
    weight: 1.1,
    hasAmount: true,
    render: (p, a) =>
      `Reconcile the ${periodLabel(p)} pension deductions with the provider's schedule, highlighting differences over ${gbp(a)}.`,
  },
  {
    id: 'approval-archive',
    weight: 1,
    hasAmount: false,
    render: (p) => `Archive the signed ${periodLabel(p)} payroll approval pack in the document store.`,
  },
];

/** Each is used at most once in a stream. */
export const ONE_OFF_INSTRUCTIONS: readonly string[] = [
  'Find out why the warehouse night shift premium was paid twice and tell me what went wrong.',
  'Can you confirm whether the company car benefit for the sales director was reported correctly?',
  'Update the cost centre mapping now that the marketing and communications teams have merged.',
  'Work out the redundancy package for the closing Leeds depot under the enhanced scheme.',
  'Draft a note to staff explaining the change of payday over the Christmas period.',
  'Investigate the missing student loan deductions flagged by the auditors.',
  'Pull together every maternity pay case that started since the new policy came in.',
  'Set up the salary advance scheme the board approved at its last meeting.',
  'Check the tronc distribution for the restaurant staff against the new allocation rules.',
  'Reissue the corrected payslip for the contractor whose day rate was keyed wrongly.',
  'Compare our graduate starting salaries with the benchmarking survey the consultants sent.',
  'Record that the trade union check-off arrangement has been cancelled.',
  'Review the relocation allowances paid to the engineers who moved to the Bristol office.',
  'Confirm the gender pay gap snapshot data is ready for the annual publication.',
  'Explain to the finance controller why overtime costs jumped at the distribution centre.',
  'Resolve the duplicate employee records created by the recruitment system import.',
  'Calculate the holiday entitlement for the returning sabbatical employees.',
  'Produce the long service award list for the staff newsletter.',
  'Flag any seasonal workers who are close to the auto-enrolment earnings trigger.',
  'Fix the bank details of the three staff whose salaries bounced back.',
  'Send the childcare voucher scheme closure letter to the remaining members.',
  'Summarise the outcome of the pay benchmarking exercise for the remuneration committee.',
  'Archive the expired right-to-work documents according to the retention policy.',
  'Notify the pension trustees about the change of scheme administrator.',
  'Build the onboarding payroll checklist for the newly acquired subsidiary.',
];
