import { countTokens, TOKENIZERS, type TokenizerName } from '../../tokens/counter.ts';
import { coordinationMessages, DRAFT_BENCHMARK_HOPS, type CoordinationMessage } from './messages.ts';
import { AACP_PARAMS, FRAMINGS, PUBLISHED_AACP_PAYROLL, type FramingName } from './params.ts';
import { ownValue } from '../../util/json.ts';

/**
 * Coordination tokens, English versus AACP (draft §10): counted with real BPE tokenizers on the
 * exact text, bare and with each provider's per-message framing (a parameter). The draft's own
 * figures ride along in `published*` columns for comparison only.
 */

export interface HopTokenRow {
  workflow: string;
  hop: string;
  tokenizer: TokenizerName;
  framing: FramingName;
  englishTokens: number;
  aacpTokens: number;
  /** (aacp - english) / english, percent; negative = AACP is smaller. */
  changePct: number;
  publishedEnglish: number | null;
  publishedAacp: number | null;
  publishedClaudePct: number | null;
  publishedGpt4oPct: number | null;
}

export type WorkflowTokenRow = Omit<HopTokenRow, 'hop'> & { hops: number };

const pct = (aacp: number, english: number) => Math.round(((aacp - english) / english) * 1000) / 10;

function published(hop: string) {
  const p = ownValue(PUBLISHED_AACP_PAYROLL.hops, hop);
  return {
    publishedEnglish: p?.english ?? null,
    publishedAacp: p?.aacp ?? null,
    publishedClaudePct: p?.claudePct ?? null,
    publishedGpt4oPct: p?.gpt4oPct ?? null,
  };
}

export function measureHops(
  messages: CoordinationMessage[] = coordinationMessages(),
  tokenizers: readonly TokenizerName[] = TOKENIZERS,
): HopTokenRow[] {
  const rows: HopTokenRow[] = [];
  for (const tokenizer of tokenizers) {
    for (const framing of FRAMINGS) {
      const extra = AACP_PARAMS.framing[framing].tokens;
      for (const m of messages) {
        const englishTokens = countTokens(m.english, tokenizer) + extra;
        const aacpTokens = countTokens(m.packet, tokenizer) + extra;
        rows.push({
          workflow: m.workflow,
          hop: m.hop,
          tokenizer,
          framing,
          englishTokens,
          aacpTokens,
          changePct: pct(aacpTokens, englishTokens),
          ...(m.workflow === 'payroll' ? published(m.hop) : published('')),
        });
      }
    }
  }
  return rows;
}

/**
 * Per-workflow totals. `payroll-4hop` is the draft's benchmark subset (§10.2) and carries the
 * draft's totals; `payroll` is all six hops of the encoder.
 */
export function measureWorkflows(hopRows: HopTokenRow[]): WorkflowTokenRow[] {
  const groups = new Map<string, HopTokenRow[]>();
  for (const r of hopRows) {
    const add = (name: string) => {
      const key = `${name}|${r.tokenizer}|${r.framing}`;
      groups.set(key, [...(groups.get(key) ?? []), r]);
    };
    add(r.workflow);
    if (r.workflow === 'payroll' && (DRAFT_BENCHMARK_HOPS as readonly string[]).includes(r.hop)) add('payroll-4hop');
  }
  return [...groups.entries()].map(([key, rows]) => {
    const [workflow, tokenizer, framing] = key.split('|') as [string, TokenizerName, FramingName];
    const englishTokens = rows.reduce((s, r) => s + r.englishTokens, 0);
    const aacpTokens = rows.reduce((s, r) => s + r.aacpTokens, 0);
    const t = workflow === 'payroll-4hop' ? PUBLISHED_AACP_PAYROLL.total : undefined;
    return {
      workflow,
      tokenizer,
      framing,
      hops: rows.length,
      englishTokens,
      aacpTokens,
      changePct: pct(aacpTokens, englishTokens),
      publishedEnglish: t?.english ?? null,
      publishedAacp: t?.aacp ?? null,
      publishedClaudePct: t?.claudePct ?? null,
      publishedGpt4oPct: t?.gpt4oPct ?? null,
    };
  });
}
