import { nameToken } from '../packet.ts';
import { emit, type EncodedHop } from './types.ts';

/**
 * Invoice processing rule-based encoder (draft §6.1: "InvoiceEncoder, 3 coordination hops").
 * Hop 1 reproduces the draft's §4.4 "Process supplier invoice" packet byte for byte.
 */

export interface InvoiceInput {
  supplier: string;
  /** Major units as written in the packet (draft: amt:4200). */
  amount: number;
  /** ISO 4217 code. */
  currency: string;
  purchaseOrder: string;
  terms?: string;
  invoiceRef: string;
  returnAgent?: string;
}

export const INVOICE_HOPS = ['process-invoice', 'schedule-payment', 'log-invoice'] as const;
export type InvoiceHop = (typeof INVOICE_HOPS)[number];

const ret = (i: InvoiceInput) => i.returnAgent ?? 'FIN-Agent';
const money = (i: InvoiceInput): [string, string][] => [
  ['amt', String(i.amount)],
  ['ccy', i.currency.toUpperCase()],
];

/** Draft §4.4: PROC|FIN|return:FIN-Agent|p:2|aacp:1.1|res:invoice|sup:ABC-Ltd|amt:4200|ccy:GBP|match:PO-441|terms:net30 */
export function processInvoice(i: InvoiceInput): string {
  return emit({
    task: 'PROC',
    dom: 'FIN',
    return: ret(i),
    p: '2',
    res: 'invoice',
    extended: [['sup', nameToken(i.supplier)], ...money(i), ['match', i.purchaseOrder], ['terms', i.terms ?? 'net30']],
  });
}

function schedulePayment(i: InvoiceInput): string {
  return emit({
    task: 'PROC',
    dom: 'FIN',
    return: ret(i),
    p: '2',
    res: 'bank_transfer',
    extended: [['sup', nameToken(i.supplier)], ...money(i), ['terms', i.terms ?? 'net30']],
  });
}

function logInvoice(i: InvoiceInput): string {
  return emit({
    task: 'LOG',
    dom: 'FIN',
    return: 'AUD-Agent',
    p: '3',
    filter: `inv=${i.invoiceRef}`,
    extended: [['actor', ret(i)], ['sup', nameToken(i.supplier)], ...money(i), ['status', 'payment_scheduled']],
  });
}

const ENCODERS: Record<InvoiceHop, (i: InvoiceInput) => string> = {
  'process-invoice': processInvoice,
  'schedule-payment': schedulePayment,
  'log-invoice': logInvoice,
};

export function encodeInvoice(input: InvoiceInput): EncodedHop[] {
  return INVOICE_HOPS.map((hop) => ({ workflow: 'invoice', hop, packet: ENCODERS[hop](input) }));
}
