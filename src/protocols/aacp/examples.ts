import type { ContractReviewInput } from './workflows/contract-review.ts';
import type { InvoiceInput } from './workflows/invoice.ts';
import type { ItOnboardingInput } from './workflows/it-provisioning.ts';
import type { PayrollRunInput } from './workflows/payroll.ts';

/**
 * The structured inputs behind the draft's §4.4 example packets (period 2024-08, j.smith,
 * ABC Ltd £4,200 against PO-441, the Acme Ltd NDA). Fields the draft's packets do not show
 * (invoice reference) are this harness's own.
 */
export const DRAFT_PAYROLL_INPUT: PayrollRunInput = { period: '2024-08' };
export const DRAFT_IT_INPUT: ItOnboardingInput = { username: 'j.smith' };
export const DRAFT_INVOICE_INPUT: InvoiceInput = {
  supplier: 'ABC Ltd',
  amount: 4200,
  currency: 'GBP',
  purchaseOrder: 'PO-441',
  terms: 'net30',
  invoiceRef: 'INV-1093',
};
export const DRAFT_CONTRACT_INPUT: ContractReviewInput = {
  contractType: 'NDA',
  party: 'Acme Ltd',
  clause: 's7',
  issue: 'IP rights restriction',
  risk: 'high',
  block: 'signature',
};

/** The draft's §4.4 example packets, verbatim (the RFC layout's line wraps removed). */
export const DRAFT_EXAMPLE_PACKETS = {
  fetchEmployees: 'FETCH|HR|return:HR-Agent|p:1|aacp:1.1|res:emp_salary|period:2024-08|filter:status=active|fmt:json',
  mergeCalculate: 'MERGE|HR|return:HR-Agent|p:1|aacp:1.1|rules:payroll_v2|validate:budget_cc',
  flagClause:
    'FLAG|LEGAL|return:LEG-Agent|p:1|aacp:1.1|type:NDA|party:Acme-Ltd|clause:s7|issue:ip_rights_restriction|risk:high|block:signature',
  buildAccount: 'BUILD|IT|return:IT-Agent|p:1|aacp:1.1|res:ad_account|filter:usr=j.smith|fields:email,dept,grp,pwd_reset',
  processInvoice: 'PROC|FIN|return:FIN-Agent|p:2|aacp:1.1|res:invoice|sup:ABC-Ltd|amt:4200|ccy:GBP|match:PO-441|terms:net30',
  auditRecord: 'LOG|HR|return:AUD-Agent|p:2|aacp:1.1|actor:ORCHESTRATOR|chain:HR-AGENT,FIN-AGENT,HR-AGENT,HR-AGENT|status:review_required',
} as const;
