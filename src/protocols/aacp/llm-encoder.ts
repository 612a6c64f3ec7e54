import { keywordsOf } from './keywords.ts';
import { buildPacket, serialisePacket } from './packet.ts';
import { AACP_PARAMS } from './params.ts';
import { extractVariables } from './variables.ts';

/**
 * Tier 3 of the fallback encoder (draft §6.2/§6.3): English → packet by a language model. A real
 * model client implements LlmPacketEncoder; the harness ships only a deterministic stand-in so
 * runs are reproducible offline and the call count and projected cost can be measured.
 */

export interface LlmEncodeRequest {
  english: string;
  /** Domain hint from the caller (§6.2 encoders receive the domain). */
  domain?: string;
  returnAgent: string;
}

export interface LlmPacketEncoder {
  /** Recorded in results, e.g. `StandInLlmEncoder`. */
  readonly name: string;
  /** True for anything that does not call a model: reports must say so. */
  readonly standIn: boolean;
  /** USD per call, for cost projection. */
  readonly costPerCallUsd: number;
  encode(request: LlmEncodeRequest): Promise<string>;
}

const TASK_VERBS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    retrieve: 'FETCH',
    pull: 'FETCH',
    fetch: 'FETCH',
    export: 'FETCH',
    list: 'FETCH',
    gather: 'FETCH',
    post: 'PROC',
    process: 'PROC',
    apply: 'PROC',
    book: 'PROC',
    correct: 'PROC',
    update: 'PROC',
    calculate: 'CALC',
    recalculate: 'CALC',
    work: 'CALC',
    estimate: 'CALC',
    send: 'SEND',
    email: 'SEND',
    notify: 'SEND',
    remind: 'SEND',
    issue: 'SEND',
    upload: 'SYNC',
    sync: 'SYNC',
    reconcile: 'SYNC',
    submit: 'SYNC',
    file: 'SYNC',
    flag: 'FLAG',
    check: 'FLAG',
    review: 'FLAG',
    investigate: 'RESOLVE',
    resolve: 'RESOLVE',
    fix: 'RESOLVE',
    log: 'LOG',
    record: 'LOG',
    archive: 'LOG',
    report: 'REPORT',
    produce: 'REPORT',
    summarise: 'REPORT',
    merge: 'MERGE',
    combine: 'MERGE',
    build: 'BUILD',
    create: 'BUILD',
    confirm: 'ACK',
    acknowledge: 'ACK',
  }),
);

const DOMAIN_WORDS: [string, string][] = [
  ['invoice', 'FIN'],
  ['journal', 'FIN'],
  ['ledger', 'FIN'],
  ['budget', 'FIN'],
  ['vat', 'FIN'],
  ['contract', 'LEGAL'],
  ['clause', 'LEGAL'],
  ['laptop', 'IT'],
  ['account', 'IT'],
  ['customer', 'CS'],
  ['campaign', 'MKT'],
];

const FORMATS = ['csv', 'json', 'pdf', 'xlsx'];

/**
 * A deterministic STAND-IN for an LLM encoder: keyword rules, no model call. It exists so the
 * fallback loop, the registry and the cost accounting can be exercised and measured; the packets
 * it writes are plausible, not what a real model would write. Calls and projected cost are
 * counted as if each call were billed.
 */
export class StandInLlmEncoder implements LlmPacketEncoder {
  readonly name = 'StandInLlmEncoder';
  readonly standIn = true;
  calls = 0;

  constructor(
    /** Default: draft §6.2 "approximately $0.0006 USD per instruction". */
    readonly costPerCallUsd: number = AACP_PARAMS.llmCostPerCallUsd,
  ) {}

  get projectedCostUsd(): number {
    return this.calls * this.costPerCallUsd;
  }

  async encode(request: LlmEncodeRequest): Promise<string> {
    this.calls++;
    return this.encodeUncounted(request);
  }

  /** The same answer without counting a call (used as an oracle when checking served packets). */
  encodeUncounted(request: LlmEncodeRequest): string {
    const lower = request.english.toLowerCase();
    const words: string[] = lower.match(/[a-z]+/g) ?? [];
    const verb = words.find((w) => TASK_VERBS.has(w));
    const task = verb ? TASK_VERBS.get(verb)! : 'PROC';
    const dom = request.domain ?? DOMAIN_WORDS.find(([w]) => words.includes(w))?.[1] ?? 'HR';
    const nouns = keywordsOf(request.english).filter((k) => !TASK_VERBS.has(k) && !FORMATS.includes(k));
    const vars = extractVariables(request.english).values;
    const urgent = /\b(urgent|urgently|immediately|asap|today)\b/.test(lower);
    const fmt = FORMATS.filter((f) => words.includes(f) || (f === 'xlsx' && words.includes('excel'))).join(',');
    const packet = buildPacket({
      task,
      dom,
      return: request.returnAgent,
      p: urgent ? '1' : '2',
      res: nouns.slice(0, 2).join('_') || undefined,
      period: vars.period,
      filter: vars.ref ? `ref=${vars.ref}` : undefined,
      fmt: fmt || undefined,
      extended: [
        ['amt', vars.amt],
        ['ccy', vars.amt ? vars.ccy : undefined],
      ],
    });
    return serialisePacket(packet);
  }
}
