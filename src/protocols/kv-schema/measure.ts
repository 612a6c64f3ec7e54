import { countTokens, TOKENIZERS, type TokenizerName } from '../../tokens/counter.ts';
import { negotiationRequest } from './negotiation.ts';
import { NL_REQUESTS, type NlRequest } from './requests.ts';
import { SCHEMA_TEMPLATES } from './templates.ts';
import type { SchemaTemplate } from './types.ts';

/**
 * Tokens of a natural-language request versus its structured payload, plus the one-time
 * negotiation (request + template), and the number of messages after which negotiation pays
 * off: the smallest n with negotiation + n·payload ≤ n·NL. A second break-even treats the
 * template as re-read by the client's LLM for every message (§6.1 in-context learning puts it
 * in the prompt), which is what a client without a prompt cache pays. A third view models the
 * server-side NLU the protocol removes (see nlWithServerParseTokensMean).
 */

export type JsonLayout = 'compact' | 'pretty';

export interface KvTokenRow {
  scenario: string;
  tokenizer: TokenizerName;
  layout: JsonLayout;
  requests: number;
  nlTokensMean: number;
  payloadTokensMean: number;
  negotiationRequestTokens: number;
  negotiationResponseTokens: number;
  negotiationTokens: number;
  savedPerMessage: number;
  /** null: the payload is not smaller than the NL request, so negotiation never pays off. */
  breakEvenMessages: number | null;
  /** Per-message cost if the template is in the client's prompt for every message. */
  payloadWithSchemaTokensMean: number;
  breakEvenWithSchemaInPrompt: number | null;
  /**
   * MODEL, not a message count: without the protocol the server agent parses the NL request with
   * its own schema in its prompt (§1 "eliminates the need for server-side agents to perform
   * open-ended natural language understanding"); per-message NL cost = NL + template tokens.
   */
  nlWithServerParseTokensMean: number;
  breakEvenWithServerParse: number | null;
}

function json(value: unknown, layout: JsonLayout): string {
  return layout === 'compact' ? JSON.stringify(value) : JSON.stringify(value, null, 2);
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const round1 = (x: number) => Math.round(x * 10) / 10;

/** Smallest n ≥ 1 with fixed + n·perMessage ≤ n·baseline, or null if never. */
export function breakEven(fixed: number, perMessage: number, baseline: number): number | null {
  const saving = baseline - perMessage;
  if (saving <= 0) return null;
  return Math.max(1, Math.ceil(fixed / saving));
}

export function measureKvTokens(
  templates: readonly SchemaTemplate[] = SCHEMA_TEMPLATES,
  requests: readonly NlRequest[] = NL_REQUESTS,
  tokenizers: readonly TokenizerName[] = TOKENIZERS,
): KvTokenRow[] {
  const rows: KvTokenRow[] = [];
  for (const t of templates) {
    const mine = requests.filter((r) => r.scenario === t.scenario);
    if (mine.length === 0) continue;
    for (const tokenizer of tokenizers) {
      for (const layout of ['compact', 'pretty'] as const) {
        const nl = mean(mine.map((r) => countTokens(r.text, tokenizer)));
        const payload = mean(mine.map((r) => countTokens(json(r.payload, layout), tokenizer)));
        const reqTokens = countTokens(json(negotiationRequest(t.scenario), layout), tokenizer);
        const respTokens = countTokens(json(t, layout), tokenizer);
        const negotiation = reqTokens + respTokens;
        rows.push({
          scenario: t.scenario,
          tokenizer,
          layout,
          requests: mine.length,
          nlTokensMean: round1(nl),
          payloadTokensMean: round1(payload),
          negotiationRequestTokens: reqTokens,
          negotiationResponseTokens: respTokens,
          negotiationTokens: negotiation,
          savedPerMessage: round1(nl - payload),
          breakEvenMessages: breakEven(negotiation, payload, nl),
          payloadWithSchemaTokensMean: round1(payload + respTokens),
          breakEvenWithSchemaInPrompt: breakEven(reqTokens, payload + respTokens, nl),
          nlWithServerParseTokensMean: round1(nl + respTokens),
          breakEvenWithServerParse: breakEven(negotiation, payload, nl + respTokens),
        });
      }
    }
  }
  return rows;
}
