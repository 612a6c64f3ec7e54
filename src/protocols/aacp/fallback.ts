import { BUILTIN_PATTERNS, type BuiltinPattern } from './builtin-patterns.ts';
import { coverage, keywordsOf, symmetricOverlap } from './keywords.ts';
import type { LlmPacketEncoder } from './llm-encoder.ts';
import { AACP_PARAMS } from './params.ts';
import type { AacpRegistry, RegistryEntry } from './registry.ts';
import { fillTemplate, makeTemplate } from './template.ts';
import { assertTransmittable, type Finding, type WarningRule } from './validator.ts';
import { extractVariables } from './variables.ts';

/**
 * The three-tier fallback encoder of draft §6.3:
 *   1. hash:    SHA-256 of the normalised instruction found in the registry → cached packet ($0)
 *   2. pattern: keyword match above the threshold → a registry template re-filled from this
 *               instruction's variables, or a built-in rule-based encoder ($0)
 *   3. llm:     the LLM encoder; the result is logged to the registry ($0.0006 by default)
 * Every packet, whatever its tier, passes the §7 gate before it is returned.
 *
 * `staleSafe: false` reproduces the reference SDK's Tier 2 (return the registry's cached packet
 * as it is), only so the harness can count the stale packets that behaviour serves.
 */

export type Tier = 'hash' | 'pattern-registry' | 'pattern-builtin' | 'llm';

export interface FallbackResult {
  packet: string;
  tier: Tier;
  costUsd: number;
  /** Registry entry or built-in pattern that served it. */
  source?: string;
  score?: number;
  warnings: Finding<WarningRule>[];
}

export interface FallbackOptions {
  registry: AacpRegistry;
  llm: LlmPacketEncoder;
  builtins?: readonly BuiltinPattern[];
  threshold?: number;
  staleSafe?: boolean;
}

export interface EncodeHint {
  domain?: string;
  returnAgent?: string;
}

export class FallbackEncoder {
  readonly stats: Record<Tier, number> = { hash: 0, 'pattern-registry': 0, 'pattern-builtin': 0, llm: 0 };
  llmCostUsd = 0;
  private readonly builtins: readonly BuiltinPattern[];
  private readonly threshold: number;
  private readonly staleSafe: boolean;

  constructor(private readonly opts: FallbackOptions) {
    this.builtins = opts.builtins ?? BUILTIN_PATTERNS;
    this.threshold = opts.threshold ?? AACP_PARAMS.patternThreshold;
    this.staleSafe = opts.staleSafe ?? true;
  }

  async encode(english: string, hint: EncodeHint = {}): Promise<FallbackResult> {
    const returnAgent = hint.returnAgent ?? 'HR-Agent';
    const cached = this.opts.registry.hit(english);
    if (cached) return this.done({ packet: cached.packet, tier: 'hash', costUsd: 0, source: cached.hash });

    const pattern = this.patternMatch(english, hint.domain, returnAgent);
    if (pattern) return this.done(pattern);

    const llm = this.opts.llm;
    const packet = await llm.encode({ english, domain: hint.domain, returnAgent });
    const warnings = assertTransmittable(packet); // an invalid LLM answer is never logged nor sent
    const vars = extractVariables(english);
    const entry = this.opts.registry.add({
      english,
      domain: hint.domain ?? packet.split('|')[1] ?? '',
      keywords: [...keywordsOf(english)],
      packet,
      template: makeTemplate(packet, english, vars),
      encoder: llm.name,
    });
    this.llmCostUsd += llm.costPerCallUsd;
    this.stats.llm++;
    return { packet, tier: 'llm', costUsd: llm.costPerCallUsd, source: entry.hash, warnings };
  }

  private patternMatch(english: string, domain: string | undefined, returnAgent: string): Omit<FallbackResult, 'warnings'> | undefined {
    const words = keywordsOf(english);
    const vars = extractVariables(english);
    type Candidate = { score: number; run: () => Omit<FallbackResult, 'warnings'> | undefined };
    const candidates: Candidate[] = [];

    for (const entry of this.opts.registry.entries()) {
      if (domain && entry.domain !== domain) continue;
      const score = symmetricOverlap(words, entry.keywords);
      if (score < this.threshold) continue;
      candidates.push({ score, run: () => this.fromRegistry(entry, english, vars, score) });
    }
    for (const b of this.builtins) {
      if (domain && b.domain !== domain) continue;
      const score = coverage(words, b.keywords);
      if (score < this.threshold) continue;
      candidates.push({
        score,
        run: () => {
          const packet = b.encode(english, vars, returnAgent);
          return packet === undefined ? undefined : { packet, tier: 'pattern-builtin', costUsd: 0, source: b.id, score };
        },
      });
    }
    // Best score first; registry before built-in on ties (it is the more specific pattern).
    candidates.sort((a, b) => b.score - a.score);
    for (const c of candidates) {
      const r = c.run();
      if (r) return r;
    }
    return undefined;
  }

  private fromRegistry(entry: RegistryEntry, english: string, vars: ReturnType<typeof extractVariables>, score: number) {
    let packet: string;
    if (!this.staleSafe)
      packet = entry.packet; // reference-SDK behaviour: may be stale
    else {
      if (!entry.template) return undefined;
      const filled = fillTemplate(entry.template, english, vars);
      if (!filled.ok) return undefined;
      packet = filled.packet;
    }
    this.opts.registry.recordPatternHit(entry);
    return { packet, tier: 'pattern-registry' as const, costUsd: 0, source: entry.hash, score };
  }

  private done(r: Omit<FallbackResult, 'warnings'>): FallbackResult {
    const warnings = assertTransmittable(r.packet);
    this.stats[r.tier]++;
    return { ...r, warnings };
  }
}
