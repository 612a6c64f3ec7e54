import type { EvolutionParams } from './params.ts';
import type { KeyDefinition } from './types.ts';

/**
 * The two-phase lifecycle of a patch key (§6.2.3): experimental for the trial period, then
 * promoted to stable or deprecated; a deprecated key is withdrawn after the grace period and,
 * after the backward-compatibility window, retired (no longer accepted). The draft says nothing
 * of a key that meets neither the promotion nor the deprecation bar; this harness keeps it
 * experimental for another trial period ("extended").
 */

export type KeyState = 'experimental' | 'stable' | 'deprecated' | 'withdrawn' | 'retired';

export interface TrialMetrics {
  /** Payloads of the scenario received since the trial started. */
  payloads: number;
  /** Payloads that carried the key. */
  uses: number;
  /** Uses judged aligned with the original request (simulation: ground truth; live: LLM judge or audit sample). */
  aligned: number;
  /** Uses whose value conformed to key_type. */
  typeOk: number;
  clientsUsed: Set<string>;
  clientsReceived: Set<string>;
}

export interface PatchKey {
  def: KeyDefinition;
  state: KeyState;
  /** Time (h) the current state began. */
  sinceH: number;
  trialStartH: number;
  metrics: TrialMetrics;
  clusterId: number;
  trials: number;
}

export interface MetricSnapshot {
  usage: number;
  alignment: number | null;
  typeCorrectness: number | null;
  adoption: number | null;
}

export function emptyMetrics(): TrialMetrics {
  return { payloads: 0, uses: 0, aligned: 0, typeOk: 0, clientsUsed: new Set(), clientsReceived: new Set() };
}

/** The §6.2.3 evaluation metrics over the trial so far. */
export function snapshot(m: TrialMetrics): MetricSnapshot {
  return {
    usage: m.payloads === 0 ? 0 : m.uses / m.payloads,
    alignment: m.uses === 0 ? null : m.aligned / m.uses,
    typeCorrectness: m.uses === 0 ? null : m.typeOk / m.uses,
    adoption: m.clientsReceived.size === 0 ? null : m.clientsUsed.size / m.clientsReceived.size,
  };
}

export type Decision = 'promote' | 'deprecate' | 'extend';

/** Stabilisation decision at the end of a trial (§6.2.3). A key never used is deprecated (usage 0 < 5%). */
export function decide(s: MetricSnapshot, p: Pick<EvolutionParams, 'promote' | 'deprecate'>): Decision {
  const align = s.alignment ?? 0;
  const types = s.typeCorrectness ?? 0;
  if (s.usage < p.deprecate.usage || align < p.deprecate.alignment || types < p.deprecate.typeCorrectness) return 'deprecate';
  if (s.usage >= p.promote.usage && align >= p.promote.alignment && types >= p.promote.typeCorrectness) return 'promote';
  return 'extend';
}

/** Keys the server advertises (withdrawn and retired keys are removed from active patches). */
export function isAdvertised(k: PatchKey): boolean {
  return k.state === 'experimental' || k.state === 'stable' || k.state === 'deprecated';
}
