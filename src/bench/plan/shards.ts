import type { BenchUnit } from '../types.ts';
import { planByCost } from '../../util/plan-by-cost.ts';

/**
 * How a run's units are split over shards: the same split in every shard of a run, from the
 * unit list and nothing else (not this machine's timings), so the parts fit together.
 *
 * Greedy longest-first (LPT): units by estimated cost, largest first (ties in list order), each
 * to the shard with the least estimated cost so far (ties to the lower index). The estimate is
 * only a hint for balance: a wrong one makes one shard slower, never a result different.
 */

export interface UnitCostHint {
  unit: BenchUnit;
  /** Its estimated cost in pipeline-seed runs: a pipeline's seeds, a study's StudyScheduling.cost (default 1). */
  cost: number;
}

export function unitKey(unit: BenchUnit): string {
  return `${unit.kind}/${unit.id}`;
}

/** The units of each shard (index 0 = shard 1), each list in the order of `units`. */
export function planShards(units: readonly UnitCostHint[], count: number): BenchUnit[][] {
  return planByCost(
    units.map((u) => ({ item: u.unit, cost: u.cost })),
    count,
  );
}
