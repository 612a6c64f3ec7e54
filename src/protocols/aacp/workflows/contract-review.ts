import { codeToken, nameToken } from '../packet.ts';
import { emit, type EncodedHop } from './types.ts';

/**
 * Contract review rule-based encoder (draft §6.1: "ContractEncoder, 3 coordination hops").
 * Hop 2 reproduces the draft's §4.4 "Flag a legal clause for review" packet byte for byte.
 */

export interface ContractReviewInput {
  /** Contract type, e.g. NDA. */
  contractType: string;
  party: string;
  clause: string;
  /** Plain words; encoded as a snake_case code ("IP rights restriction" -> ip_rights_restriction). */
  issue: string;
  risk: 'low' | 'medium' | 'high';
  /** What the flag blocks, e.g. signature. */
  block: string;
  returnAgent?: string;
}

export const CONTRACT_HOPS = ['request-review', 'flag-clause', 'log-review'] as const;
export type ContractHop = (typeof CONTRACT_HOPS)[number];

const ret = (i: ContractReviewInput) => i.returnAgent ?? 'LEG-Agent';
const doc = (i: ContractReviewInput): [string, string][] => [
  ['type', i.contractType.toUpperCase()],
  ['party', nameToken(i.party)],
];

function requestReview(i: ContractReviewInput): string {
  return emit({ task: 'FLAG', dom: 'LEGAL', return: ret(i), p: '1', extended: [...doc(i), ['req', 'clause_review,risk_assess']] });
}

/** Draft §4.4: FLAG|LEGAL|return:LEG-Agent|p:1|aacp:1.1|type:NDA|party:Acme-Ltd|clause:s7|issue:ip_rights_restriction|risk:high|block:signature */
export function flagClause(i: ContractReviewInput): string {
  return emit({
    task: 'FLAG',
    dom: 'LEGAL',
    return: ret(i),
    p: '1',
    extended: [...doc(i), ['clause', i.clause], ['issue', codeToken(i.issue)], ['risk', i.risk], ['block', i.block]],
  });
}

function logReview(i: ContractReviewInput): string {
  return emit({
    task: 'LOG',
    dom: 'LEGAL',
    return: 'AUD-Agent',
    p: '2',
    extended: [...doc(i), ['risk', i.risk], ['actor', ret(i)], ['status', 'review_required']],
  });
}

const ENCODERS: Record<ContractHop, (i: ContractReviewInput) => string> = {
  'request-review': requestReview,
  'flag-clause': flagClause,
  'log-review': logReview,
};

export function encodeContractReview(input: ContractReviewInput): EncodedHop[] {
  return CONTRACT_HOPS.map((hop) => ({ workflow: 'contract-review', hop, packet: ENCODERS[hop](input) }));
}
