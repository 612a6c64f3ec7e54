import type { BenchUnit } from '../types.ts';
import { ownValue } from '../../util/json.ts';
import { planByCost } from '../../util/plan-by-cost.ts';

/**
 * How a run's units are split over shards: the same split in every shard of a run, from the
 * unit list and nothing else (not this machine's timings), so the parts fit together.
 *
 * Greedy longest-first (LPT): units by estimated cost, largest first (ties in list order), each
 * to the shard with the least estimated cost so far (ties to the lower index). The estimate is
 * only a hint for balance: a wrong one makes one shard slower, never a result different.
 */

/**
 * Estimated cost of each independent study, in pipeline-seed runs (one pipeline over one
 * seed's tasks: about half a second on two cores). From the bench's timing table; studies not
 * listed count as one.
 */
const STUDY_COST: Readonly<Record<string, number>> = {
  scaling: 8,
  retrieval: 12,
  'router-latency': 5,
  'real-suite': 5,
  'kv-schema': 2,
  adversarial: 2,
};

export interface UnitCostHint {
  unit: BenchUnit;
  /** Seeds the unit runs on (pipelines; 1 for a study). */
  seeds: number;
}

export function unitKey(unit: BenchUnit): string {
  return `${unit.kind}/${unit.id}`;
}

function estimate({ unit, seeds }: UnitCostHint): number {
  return unit.kind === 'pipeline' ? seeds : (ownValue(STUDY_COST, unit.id) ?? 1);
}

/** The units of each shard (index 0 = shard 1), each list in the order of `units`. */
export function planShards(units: readonly UnitCostHint[], count: number): BenchUnit[][] {
  return planByCost(
    units.map((u) => ({ item: u.unit, cost: estimate(u) })),
    count,
  );
}
