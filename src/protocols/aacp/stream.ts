import { Rng } from '../../util/rng.ts';
import { FallbackEncoder, type Tier } from './fallback.ts';
import { payrollInstruction } from './instructions.ts';
import { StandInLlmEncoder, type LlmPacketEncoder } from './llm-encoder.ts';
import { DRAFT_BENCHMARK_HOPS } from './messages.ts';
import { parsePacket } from './packet.ts';
import { AACP_PARAMS } from './params.ts';
import { shiftPeriod } from './period.ts';
import { AacpRegistry } from './registry.ts';
import { NOVEL_PATTERNS, ONE_OFF_INSTRUCTIONS } from './stream-instructions.ts';
import { extractVariables } from './variables.ts';

/**
 * A seeded stream of monthly payroll runs through the three-tier fallback encoder (draft §3:
 * "500 monthly runs"; §6.3: "at most one LLM call per novel pattern"). Each run sends the four
 * benchmark hops in English plus, sometimes, a recurring ad-hoc request (new month or amount each
 * time) or a one-off request. Reported: LLM calls, hits per tier, cost, and stale packets — a
 * packet whose period or amount is not the instruction's own.
 */

export interface StreamOptions {
  seed: number;
  runs?: number;
  /** Payroll clients; run r is client r % companies in month floor(r / companies). */
  companies?: number;
  startPeriod?: string;
  /** Probability that a run carries one recurring ad-hoc request. */
  novelShare?: number;
  /** Probability that a run carries a one-off request (while the list lasts). */
  oneOffShare?: number;
  registry?: AacpRegistry;
  llm?: LlmPacketEncoder;
  /** false = the reference SDK's Tier 2 (serve the cached packet as is). */
  staleSafe?: boolean;
}

export interface StreamSummary {
  mode: 'stale-safe' | 'reference-sdk-tier2';
  llmEncoder: string;
  runs: number;
  instructions: number;
  standardInstructions: number;
  novelInstructions: number;
  oneOffInstructions: number;
  distinctNovelPatterns: number;
  llmCalls: number;
  hashHits: number;
  patternRegistryHits: number;
  patternBuiltinHits: number;
  llmCostUsd: number;
  /** Every instruction through the LLM encoder instead (draft §10.4's comparison). */
  allLlmCostUsd: number;
  /** Only the four standard hops through the LLM (draft §10.4: ≈ $1.20 over 500 runs). */
  standardHopsAllLlmCostUsd: number;
  stalePackets: number;
  maxLlmCallsPerPattern: number;
  registryEntries: number;
}

export interface StreamEvent {
  run: number;
  period: string;
  pattern: string;
  tier: Tier;
  stale: boolean;
}

export interface StreamResult {
  summary: StreamSummary;
  events: StreamEvent[];
  llmCallsByPattern: Record<string, number>;
}

/** Periods and amounts in the packet that the instruction itself does not carry. */
export function staleValues(packet: string, english: string): string[] {
  const v = extractVariables(english).values;
  // period: must be one the instruction names; other dates may also be the derived previous month.
  const named = new Set(
    Object.entries(v)
      .filter(([k]) => k.startsWith('period'))
      .map(([, x]) => x),
  );
  const anyPeriod = new Set([...named, ...(v.prev_period ? [v.prev_period] : [])]);
  const amounts = new Set(
    Object.entries(v)
      .filter(([k]) => k.startsWith('amt'))
      .map(([, x]) => x),
  );
  const out: string[] = [];
  for (const f of parsePacket(packet).fields) {
    const allowed = f.key === 'period' ? named : anyPeriod;
    for (const p of f.value.match(/\b\d{4}-\d{2}\b/g) ?? []) if (!allowed.has(p)) out.push(`${f.key}:${p}`);
    if (f.key === 'amt' && !amounts.has(f.value)) out.push(`amt:${f.value}`);
  }
  return out;
}

export async function simulateStream(opts: StreamOptions): Promise<StreamResult> {
  const runs = opts.runs ?? 500;
  const companies = opts.companies ?? 20;
  const start = opts.startPeriod ?? '2024-01';
  const novelShare = opts.novelShare ?? 0.3;
  const oneOffShare = opts.oneOffShare ?? 0.05;
  const staleSafe = opts.staleSafe ?? true;
  const llm = opts.llm ?? new StandInLlmEncoder();
  const registry = opts.registry ?? AacpRegistry.inMemory();
  const enc = new FallbackEncoder({ registry, llm, staleSafe });
  const rng = new Rng(opts.seed, 'aacp-stream');
  const weights = NOVEL_PATTERNS.map((p) => [p, p.weight] as const);

  const events: StreamEvent[] = [];
  const llmCallsByPattern = new Map<string, number>();
  const seenNovel = new Set<string>();
  let oneOffs = 0;
  let standard = 0;
  let novel = 0;

  for (let run = 0; run < runs; run++) {
    const period = shiftPeriod(start, Math.floor(run / companies));
    const batch: { pattern: string; english: string }[] = DRAFT_BENCHMARK_HOPS.map((hop) => ({
      pattern: `standard/${hop}`,
      english: payrollInstruction(hop, { period }),
    }));
    standard += batch.length;
    if (rng.chance(novelShare)) {
      const p = rng.weighted(weights);
      // Amounts in whole £50 steps so that some repeat exactly (Tier 1) and most do not.
      batch.push({ pattern: `novel/${p.id}`, english: p.render(period, rng.int(20, 400) * 50) });
      seenNovel.add(p.id);
      novel++;
    }
    if (oneOffs < ONE_OFF_INSTRUCTIONS.length && rng.chance(oneOffShare)) {
      batch.push({ pattern: `one-off/${oneOffs}`, english: ONE_OFF_INSTRUCTIONS[oneOffs]! });
      oneOffs++;
    }
    for (const item of batch) {
      const r = await enc.encode(item.english);
      if (r.tier === 'llm') llmCallsByPattern.set(item.pattern, (llmCallsByPattern.get(item.pattern) ?? 0) + 1);
      events.push({ run, period, pattern: item.pattern, tier: r.tier, stale: staleValues(r.packet, item.english).length > 0 });
    }
  }

  const instructions = events.length;
  const cost = AACP_PARAMS.llmCostPerCallUsd;
  return {
    events,
    llmCallsByPattern: Object.fromEntries(llmCallsByPattern),
    summary: {
      mode: staleSafe ? 'stale-safe' : 'reference-sdk-tier2',
      llmEncoder: llm.standIn ? `${llm.name} (stand-in, no model called)` : llm.name,
      runs,
      instructions,
      standardInstructions: standard,
      novelInstructions: novel,
      oneOffInstructions: oneOffs,
      distinctNovelPatterns: seenNovel.size,
      llmCalls: enc.stats.llm,
      hashHits: enc.stats.hash,
      patternRegistryHits: enc.stats['pattern-registry'],
      patternBuiltinHits: enc.stats['pattern-builtin'],
      llmCostUsd: round6(enc.llmCostUsd),
      allLlmCostUsd: round6(instructions * cost),
      standardHopsAllLlmCostUsd: round6(standard * cost),
      stalePackets: events.filter((e) => e.stale).length,
      maxLlmCallsPerPattern: Math.max(0, ...llmCallsByPattern.values()),
      registryEntries: registry.size,
    },
  };
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
