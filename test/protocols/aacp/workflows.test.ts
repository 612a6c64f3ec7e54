import { describe, expect, it } from 'vitest';
import { decodePacket } from '../../../src/protocols/aacp/decoder.ts';
import {
  DRAFT_CONTRACT_INPUT,
  DRAFT_EXAMPLE_PACKETS as D,
  DRAFT_INVOICE_INPUT,
  DRAFT_IT_INPUT,
  DRAFT_PAYROLL_INPUT,
} from '../../../src/protocols/aacp/examples.ts';
import { flagClause, encodeContractReview } from '../../../src/protocols/aacp/workflows/contract-review.ts';
import { processInvoice, encodeInvoice } from '../../../src/protocols/aacp/workflows/invoice.ts';
import { createAccount, encodeItOnboarding } from '../../../src/protocols/aacp/workflows/it-provisioning.ts';
import {
  encodePayrollRun,
  fetchEmployees,
  generateReport,
  logRun,
  mergeAndCalculate,
} from '../../../src/protocols/aacp/workflows/payroll.ts';
import { validatePacket } from '../../../src/protocols/aacp/validator.ts';

describe('rule-based encoders reproduce the draft §4.4 packets byte for byte', () => {
  it('payroll hop 1: fetch active employee salary records', () => {
    expect(fetchEmployees(DRAFT_PAYROLL_INPUT)).toBe(
      'FETCH|HR|return:HR-Agent|p:1|aacp:1.1|res:emp_salary|period:2024-08|filter:status=active|fmt:json',
    );
    expect(fetchEmployees(DRAFT_PAYROLL_INPUT)).toBe(D.fetchEmployees);
  });
  it('payroll hop 3: merge datasets and calculate payroll', () => {
    expect(mergeAndCalculate(DRAFT_PAYROLL_INPUT)).toBe('MERGE|HR|return:HR-Agent|p:1|aacp:1.1|rules:payroll_v2|validate:budget_cc');
  });
  it('payroll hop 5: deterministic audit record', () => {
    expect(logRun(DRAFT_PAYROLL_INPUT)).toBe(
      'LOG|HR|return:AUD-Agent|p:2|aacp:1.1|actor:ORCHESTRATOR|chain:HR-AGENT,FIN-AGENT,HR-AGENT,HR-AGENT|status:review_required',
    );
  });
  it('IT provisioning: build the user account', () => {
    expect(createAccount(DRAFT_IT_INPUT)).toBe(
      'BUILD|IT|return:IT-Agent|p:1|aacp:1.1|res:ad_account|filter:usr=j.smith|fields:email,dept,grp,pwd_reset',
    );
  });
  it('invoice processing: process supplier invoice (names and currency normalised)', () => {
    expect(processInvoice(DRAFT_INVOICE_INPUT)).toBe(
      'PROC|FIN|return:FIN-Agent|p:2|aacp:1.1|res:invoice|sup:ABC-Ltd|amt:4200|ccy:GBP|match:PO-441|terms:net30',
    );
    expect(processInvoice({ ...DRAFT_INVOICE_INPUT, currency: 'gbp' })).toBe(D.processInvoice);
  });
  it('contract review: flag a legal clause (issue words become a snake_case code)', () => {
    expect(flagClause(DRAFT_CONTRACT_INPUT)).toBe(
      'FLAG|LEGAL|return:LEG-Agent|p:1|aacp:1.1|type:NDA|party:Acme-Ltd|clause:s7|issue:ip_rights_restriction|risk:high|block:signature',
    );
  });

  it('hop counts follow §6.1 (6, 6, 3, 3) and every packet passes the validator with no warning', () => {
    const all = [
      encodePayrollRun(DRAFT_PAYROLL_INPUT),
      encodeItOnboarding(DRAFT_IT_INPUT),
      encodeInvoice(DRAFT_INVOICE_INPUT),
      encodeContractReview(DRAFT_CONTRACT_INPUT),
    ];
    expect(all.map((w) => w.length)).toEqual([6, 6, 3, 3]);
    for (const hop of all.flat()) expect(validatePacket(hop.packet)).toEqual({ valid: true, errors: [], warnings: [] });
  });

  it('is deterministic and follows the input (period and previous period)', () => {
    expect(encodePayrollRun({ period: '2025-01' })).toEqual(encodePayrollRun({ period: '2025-01' }));
    expect(generateReport({ period: '2025-01' })).toContain('|period:2025-01|');
    expect(generateReport({ period: '2025-01' })).toContain('|src_prev:2024-12|');
  });

  it('a value the format cannot carry is refused, not sent', () => {
    expect(() => createAccount({ username: 'j|smith' })).toThrow(/no escape/);
  });
});

describe('decoder', () => {
  it('expands a packet into English for audit, keeping every value', () => {
    const text = decodePacket(D.processInvoice);
    expect(text).toBe(
      'Process (finance domain). Details — resource: invoice; supplier: ABC-Ltd; amount: 4200; currency: GBP; match against: PO-441; payment terms: net30. Priority: medium. Return the result to FIN-Agent. AACP version 1.1.',
    );
  });
  it('prints unknown keys verbatim and reports problems', () => {
    const text = decodePacket('ESCALATE|HR|p:1|org_x:7');
    expect(text).toContain('unrecognised task "ESCALATE"');
    expect(text).toContain('field "org_x": 7');
    expect(text).toContain('INVALID: return-missing, aacp-missing');
    expect(text).toContain('Warnings: task-unknown, unknown-key');
  });
});
