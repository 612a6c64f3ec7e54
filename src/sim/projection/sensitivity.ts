import { scaleParam, type ParamKey, type ProjectionParams } from './params.ts';
import type { ProjectionResult } from './project.ts';

/** The projected metrics whose ranking of the methods the sensitivity analysis follows. */
export const RANK_METRICS = [
  { key: 'success', label: 'success', higherIsBetter: true, value: (r: ProjectionResult) => r.successRate.mean },
  { key: 'p50', label: 'P50 latency', higherIsBetter: false, value: (r: ProjectionResult) => r.p50 },
  { key: 'cost', label: '$/task', higherIsBetter: false, value: (r: ProjectionResult) => r.costPerTask.mean },
  { key: 'quality', label: 'quality', higherIsBetter: true, value: (r: ProjectionResult) => r.quality.mean.mean },
] as const;
export type RankMetric = (typeof RANK_METRICS)[number]['key'];

/**
 * Method ids from best to worst. Values closer than `tolerance` (relative to the larger
 * magnitude) tie; ties keep the order of the input, so an order only "changes" when two
 * methods truly swap.
 */
export function rankOrder(items: readonly { id: string; value: number }[], higherIsBetter: boolean, tolerance = 1e-9): string[] {
  const indexed = items.map((it, i) => ({ ...it, i }));
  indexed.sort((a, b) => {
    const scale = Math.max(Math.abs(a.value), Math.abs(b.value), 1e-12);
    const d = higherIsBetter ? b.value - a.value : a.value - b.value;
    return Math.abs(d) / scale <= tolerance ? a.i - b.i : d;
  });
  return indexed.map((x) => x.id);
}

/** Kendall's tau between two orders of the same ids (1 = same order, −1 = reversed). */
export function kendallTau(a: readonly string[], b: readonly string[]): number {
  const pos = new Map(b.map((id, i) => [id, i]));
  let concordant = 0;
  let discordant = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = i + 1; j < a.length; j++) {
      const d = pos.get(a[i]!)! - pos.get(a[j]!)!;
      if (d < 0) concordant++;
      else if (d > 0) discordant++;
    }
  }
  const pairs = (a.length * (a.length - 1)) / 2;
  return pairs ? (concordant - discordant) / pairs : 1;
}

export type Orders = Record<RankMetric, string[]>;

/** The order of the methods under each metric. */
function ordersOf(results: ReadonlyMap<string, ProjectionResult>, tolerance?: number): Orders {
  const out = {} as Orders;
  for (const m of RANK_METRICS) {
    out[m.key] = rankOrder(
      [...results].map(([id, r]) => ({ id, value: m.value(r) })),
      m.higherIsBetter,
      tolerance,
    );
  }
  return out;
}

export interface SensitivityRow {
  /** null for the baseline. */
  key: ParamKey | null;
  factor: number;
  value: number | null;
  orders: Orders;
  /** Metrics whose order differs from the baseline's. */
  changed: RankMetric[];
  /** Kendall's tau of each metric's order against the baseline's. */
  tau: Record<RankMetric, number>;
  /** Best method by success. */
  bestBySuccess: string;
}

/** Default factors of the sensitivity analysis: each key parameter halved and raised by half. */
const SENSITIVITY_FACTORS: readonly number[] = [0.5, 1.5];

/** The parameter sets of a sensitivity analysis, in its order: the baseline, then each key moved by each factor. */
export function sensitivityParamSets(
  params: ProjectionParams,
  keys: readonly ParamKey[],
  factors: readonly number[] = SENSITIVITY_FACTORS,
): { key: ParamKey | null; factor: number; params: ProjectionParams }[] {
  return [
    { key: null, factor: 1, params },
    ...keys.flatMap((key) => factors.map((factor) => ({ key, factor, params: scaleParam(params, key, factor) }))),
  ];
}

/**
 * Moves each key parameter by each factor (default ×0.5 and ×1.5, clamped to the parameter's
 * bound) and records how the ranking of the methods changes. `project` maps parameters to every
 * method's projection (or a promise of it, so a caller can let its event loop run between
 * projections); it is called once per set of sensitivityParamSets, in order, with the set's index.
 */
export async function sensitivityAnalysis(
  project: (
    params: ProjectionParams,
    index: number,
  ) => ReadonlyMap<string, ProjectionResult> | Promise<ReadonlyMap<string, ProjectionResult>>,
  params: ProjectionParams,
  keys: readonly ParamKey[],
  factors: readonly number[] = SENSITIVITY_FACTORS,
  tolerance?: number,
): Promise<SensitivityRow[]> {
  const sets = sensitivityParamSets(params, keys, factors);
  const base = ordersOf(await project(params, 0), tolerance);
  const row = (key: ParamKey | null, factor: number, value: number | null, orders: Orders): SensitivityRow => {
    const changed = RANK_METRICS.map((m) => m.key).filter((k) => orders[k].join() !== base[k].join());
    const tau = Object.fromEntries(RANK_METRICS.map((m) => [m.key, kendallTau(base[m.key], orders[m.key])])) as Record<RankMetric, number>;
    return { key, factor, value, orders, changed, tau, bestBySuccess: orders.success[0] ?? '' };
  };
  const rows = [row(null, 1, null, base)];
  for (let i = 1; i < sets.length; i++) {
    const { key, factor, params: moved } = sets[i]!;
    rows.push(row(key, factor, moved[key!].value, ordersOf(await project(moved, i), tolerance)));
  }
  return rows;
}
