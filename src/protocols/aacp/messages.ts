import { DRAFT_CONTRACT_INPUT, DRAFT_INVOICE_INPUT, DRAFT_IT_INPUT, DRAFT_PAYROLL_INPUT } from './examples.ts';
import { contractInstruction, invoiceInstruction, itInstruction, payrollInstruction } from './instructions.ts';
import { CONTRACT_HOPS, encodeContractReview } from './workflows/contract-review.ts';
import { encodeInvoice, INVOICE_HOPS } from './workflows/invoice.ts';
import { encodeItOnboarding, IT_HOPS } from './workflows/it-provisioning.ts';
import { encodePayrollRun, PAYROLL_HOPS } from './workflows/payroll.ts';
import type { WorkflowId } from './workflows/types.ts';

/** One coordination message in both forms: the harness's English and the rule-based packet. */
export interface CoordinationMessage {
  workflow: WorkflowId;
  hop: string;
  english: string;
  packet: string;
}

/** The payroll hops the draft benchmarks in §10.2 (its SDK's hops 1-4). */
export const DRAFT_BENCHMARK_HOPS = ['fetch-employees', 'fetch-budgets', 'merge-calculate', 'generate-report'] as const;

/** Every hop of the four §6.1 workflows, on the draft's example inputs. */
export function coordinationMessages(): CoordinationMessage[] {
  const out: CoordinationMessage[] = [];
  const payroll = encodePayrollRun(DRAFT_PAYROLL_INPUT);
  PAYROLL_HOPS.forEach((hop, i) =>
    out.push({ workflow: 'payroll', hop, english: payrollInstruction(hop, DRAFT_PAYROLL_INPUT), packet: payroll[i]!.packet }),
  );
  const it = encodeItOnboarding(DRAFT_IT_INPUT);
  IT_HOPS.forEach((hop, i) =>
    out.push({ workflow: 'it-provisioning', hop, english: itInstruction(hop, DRAFT_IT_INPUT), packet: it[i]!.packet }),
  );
  const inv = encodeInvoice(DRAFT_INVOICE_INPUT);
  INVOICE_HOPS.forEach((hop, i) =>
    out.push({ workflow: 'invoice', hop, english: invoiceInstruction(hop, DRAFT_INVOICE_INPUT), packet: inv[i]!.packet }),
  );
  const con = encodeContractReview(DRAFT_CONTRACT_INPUT);
  CONTRACT_HOPS.forEach((hop, i) =>
    out.push({ workflow: 'contract-review', hop, english: contractInstruction(hop, DRAFT_CONTRACT_INPUT), packet: con[i]!.packet }),
  );
  return out;
}
