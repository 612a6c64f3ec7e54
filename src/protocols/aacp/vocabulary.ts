/**
 * The closed vocabularies of AACP v1.1 (draft-mackay-aacp-01, seed 002): the validator and the
 * decoder read these, so they are the single place where the draft's lists live.
 */

/** Protocol version this harness speaks (§4.2: "MUST be "1.1""). */
export const AACP_VERSION = '1.1';

/** §5.1 TASK values. */
const TASK_VALUES = ['FETCH', 'PROC', 'FLAG', 'RESOLVE', 'LOG', 'SEND', 'BUILD', 'MERGE', 'CALC', 'REPORT', 'ACK', 'SYNC'] as const;

/** §5.2 DOM values. */
const DOM_VALUES = ['HR', 'FIN', 'SALES', 'LEGAL', 'IT', 'CS', 'MKT'] as const;

/** §5.3 priority values. */
export const PRIORITY_VALUES = ['1', '2', '3'] as const;

/** §4.2: core named fields (required + RECOMMENDED). Order is the draft's example order. */
export const CORE_KEYS = ['return', 'p', 'aacp', 'res', 'period', 'filter', 'fields', 'fmt'] as const;

/** §4.3: defined extended keys. Anything else is "unknown" and only warns. */
const EXTENDED_KEYS = [
  'src',
  'src_prev',
  'rules',
  'validate',
  'tmpl',
  'data_ptr',
  'amt',
  'ccy',
  'sup',
  'match',
  'terms',
  'type',
  'party',
  'clause',
  'issue',
  'risk',
  'block',
  'flags',
  'req',
  'highlight',
  'status',
  'to',
  'subj',
  'att',
  'flag_msg',
  'tone',
  'sentiment',
  'actor',
  'chain',
  'prog',
  'ltv',
  'loyalty',
  'urgency',
] as const;

const taskSet: ReadonlySet<string> = new Set(TASK_VALUES);
const domSet: ReadonlySet<string> = new Set(DOM_VALUES);
const knownKeySet: ReadonlySet<string> = new Set<string>([...CORE_KEYS, ...EXTENDED_KEYS]);

export function isKnownTask(task: string): boolean {
  return taskSet.has(task);
}

export function isKnownDom(dom: string): boolean {
  return domSet.has(dom);
}

export function isKnownKey(key: string): boolean {
  return knownKeySet.has(key);
}
