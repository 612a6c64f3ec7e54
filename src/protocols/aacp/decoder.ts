import { parsePacketLenient } from './packet.ts';
import { validatePacket } from './validator.ts';

/**
 * Packet → structured English for audit and debugging (draft §8). Advisory only: the packet
 * itself stays the canonical record, so the decoder never hides a field it does not know: it
 * prints it verbatim.
 */

const TASK_WORDS = wordMap({
  FETCH: 'Retrieve',
  PROC: 'Process',
  FLAG: 'Flag for review',
  RESOLVE: 'Resolve',
  LOG: 'Write an audit record',
  SEND: 'Send',
  BUILD: 'Build',
  MERGE: 'Merge and calculate',
  CALC: 'Calculate',
  REPORT: 'Produce a report',
  ACK: 'Acknowledge',
  SYNC: 'Synchronise',
});

const DOM_WORDS = wordMap({
  HR: 'human resources',
  FIN: 'finance',
  SALES: 'sales',
  LEGAL: 'legal',
  IT: 'IT',
  CS: 'customer service',
  MKT: 'marketing',
});

const PRIORITY_WORDS = wordMap({ '1': 'critical', '2': 'medium', '3': 'low' });

const KEY_WORDS = wordMap({
  res: 'resource',
  period: 'period',
  filter: 'filter',
  fields: 'return fields',
  fmt: 'format',
  src: 'sources',
  src_prev: 'previous source',
  rules: 'rule set',
  validate: 'validate against',
  tmpl: 'template',
  data_ptr: 'data pointer',
  amt: 'amount',
  ccy: 'currency',
  sup: 'supplier',
  match: 'match against',
  terms: 'payment terms',
  type: 'document type',
  party: 'counterparty',
  clause: 'clause',
  issue: 'issue',
  risk: 'risk',
  block: 'block',
  flags: 'flags',
  req: 'requested actions',
  highlight: 'highlight',
  status: 'status',
  to: 'recipients',
  subj: 'subject',
  att: 'attachment',
  flag_msg: 'flag message',
  tone: 'tone',
  sentiment: 'sentiment',
  actor: 'actor',
  chain: 'agent chain',
  prog: 'progress',
  ltv: 'lifetime value',
  loyalty: 'loyalty',
  urgency: 'urgency',
});

/** Maps, not plain objects: a field named `toString` or `constructor` must not find Object.prototype's. */
function wordMap(words: Record<string, string>): ReadonlyMap<string, string> {
  return new Map(Object.entries(words));
}

export function decodePacket(text: string): string {
  const { packet } = parsePacketLenient(text);
  const verb = TASK_WORDS.get(packet.task) ?? `Perform unrecognised task ${JSON.stringify(packet.task)}`;
  const domain = DOM_WORDS.get(packet.dom) ?? `unrecognised domain ${JSON.stringify(packet.dom)}`;
  const details: string[] = [];
  let ret = '';
  let priority = '';
  let version = '';
  for (const { key, value } of packet.fields) {
    if (key === 'return') ret = value;
    else if (key === 'p') priority = PRIORITY_WORDS.get(value) ?? `non-standard (${value})`;
    else if (key === 'aacp') version = value;
    else details.push(`${KEY_WORDS.get(key) ?? `field "${key}"`}: ${value}`);
  }
  const lines = [`${verb} (${domain} domain).`];
  if (details.length > 0) lines.push(`Details — ${details.join('; ')}.`);
  lines.push(
    `Priority: ${priority || 'not given (medium by default)'}. Return the result to ${ret || '(no return agent)'}. AACP version ${version || '(missing)'}.`,
  );
  const v = validatePacket(text);
  if (!v.valid) lines.push(`INVALID: ${v.errors.map((e) => e.rule).join(', ')}.`);
  if (v.warnings.length > 0) lines.push(`Warnings: ${v.warnings.map((w) => w.rule).join(', ')}.`);
  return lines.join(' ');
}
