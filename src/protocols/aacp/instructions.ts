import { periodEndLabel, periodLabel } from './period.ts';
import type { ContractHop, ContractReviewInput } from './workflows/contract-review.ts';
import type { InvoiceHop, InvoiceInput } from './workflows/invoice.ts';
import type { ItHop, ItOnboardingInput } from './workflows/it-provisioning.ts';
import type { PayrollHop, PayrollRunInput } from './workflows/payroll.ts';

/**
 * The harness's OWN English coordination instructions: what an orchestrator would write to the
 * next agent if it did not use AACP. Written for this harness (not copied from the draft or its
 * SDK); they ask for what published-figures.md says each payroll hop asks for, in the
 * polite, complete style of a production prompt. Each is the baseline its packet replaces.
 */

const SYMBOL: ReadonlyMap<string, string> = new Map([
  ['GBP', '£'],
  ['USD', '$'],
  ['EUR', '€'],
]);

function money(amount: number, currency: string): string {
  const sym = SYMBOL.get(currency.toUpperCase());
  const n = amount.toLocaleString('en-GB');
  return sym ? `${sym}${n}` : `${n} ${currency.toUpperCase()}`;
}

export function payrollInstruction(hop: PayrollHop, i: PayrollRunInput): string {
  const month = periodLabel(i.period);
  switch (hop) {
    case 'fetch-employees':
      return `Please send me the salary records of all active employees for the pay period ending ${periodEndLabel(i.period)}, with each person's department, cost centre, base salary, any change made this month and pension contribution rate, as a JSON array.`;
    case 'fetch-budgets':
      return `I have the payroll data from the HR system. To confirm that payroll costs stay within the approved budgets before we continue, please send me each cost centre's budget allocation for ${month} along with its year-to-date spend.`;
    case 'merge-calculate':
      return `Now that I have both the salary data and the budget allocations, please merge the two datasets, apply the pension contribution rates, calculate net pay after PAYE deductions for every employee, check the totals against the approved budgets and flag any anomalies, using version 2 of the payroll rules.`;
    case 'generate-report':
      return `The payroll calculation for ${month} is complete. Please generate the monthly payroll report from the standard template with a summary page, a department breakdown and the anomaly flags, compare it with last month, and produce it as both PDF and Excel.`;
    case 'log-run':
      return `Please write an audit record for this payroll run: it was coordinated by the orchestrator, passed through the HR agent, the finance agent, the HR agent and the HR agent again, and its status is that it requires review.`;
    case 'send-report':
      return `Please email the ${month} payroll report to the finance director and the HR director with the PDF attached, and flag in the message that it needs their review before payment.`;
  }
}

export function itInstruction(hop: ItHop, i: ItOnboardingInput): string {
  const u = i.username;
  switch (hop) {
    case 'create-account':
      return `We have a new starter, ${u}. Please create their Active Directory account and, once it is set up, send me back their email address, department, security groups and the password reset link.`;
    case 'provision-mailbox':
      return `Next, please set up a mailbox for ${u}, assign the standard Microsoft 365 licence and add them to their team's distribution lists. Let me know which licence and lists were applied.`;
    case 'grant-vpn':
      return `Please give ${u} remote VPN access with multi-factor authentication turned on, and confirm when the profile is active.`;
    case 'create-crm-user':
      return `Please create a CRM user for ${u} with the standard sales representative profile and tell me when it is ready.`;
    case 'issue-badge':
      return `Please issue ${u} a building pass that opens the main entrance and the third floor.`;
    case 'log-provisioning':
      return `Please record an audit entry saying that ${u} was provisioned across the directory, mail, VPN, CRM and badge systems and that every step completed successfully.`;
  }
}

export function invoiceInstruction(hop: InvoiceHop, i: InvoiceInput): string {
  const amount = money(i.amount, i.currency);
  switch (hop) {
    case 'process-invoice':
      return `We have received invoice ${i.invoiceRef} from ${i.supplier} for ${amount}. Please process it: match it against purchase order ${i.purchaseOrder}, check that the amounts agree and apply our standard 30-day payment terms.`;
    case 'schedule-payment':
      return `The invoice from ${i.supplier} has been approved. Please schedule a bank transfer of ${amount} to them on 30-day terms and confirm the payment date.`;
    case 'log-invoice':
      return `Please write an audit record for invoice ${i.invoiceRef}: supplier ${i.supplier}, amount ${amount}, handled by the finance agent, payment now scheduled.`;
  }
}

export function contractInstruction(hop: ContractHop, i: ContractReviewInput): string {
  const clause = i.clause.replace(/^s(\d+)$/i, 'section $1');
  switch (hop) {
    case 'request-review':
      return `We have received an ${i.contractType} from ${i.party}. Please review its clauses and give me a risk assessment before anyone signs it.`;
    case 'flag-clause':
      return `Please flag ${clause} of the ${i.contractType} with ${i.party} for legal review: it restricts our intellectual property rights, I would rate the risk as ${i.risk}, and nobody should sign it until this is resolved.`;
    case 'log-review':
      return `Please log the outcome of the ${i.contractType} review for ${i.party}: the legal agent rated it ${i.risk} risk and it is still waiting for a senior review.`;
  }
}
