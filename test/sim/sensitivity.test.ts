import { describe, expect, it } from 'vitest';
import { PROJECTION_PARAMS, pv, type ProjectionParams } from '../../src/sim/projection/params.ts';
import type { ProjectionResult } from '../../src/sim/projection/project.ts';
import { kendallTau, rankOrder, sensitivityAnalysis } from '../../src/sim/projection/sensitivity.ts';
import { FAILURE_CAUSES } from '../../src/sim/projection/simulate.ts';
import { sensitivityTable } from '../../src/studies/projection/tables.ts';

/** A hand-made projection result with the four ranked metrics. */
function result(success: number, p50: number, cost: number, quality: number): ProjectionResult {
  const est = (mean: number) => ({ mean, low: NaN, high: NaN, n: 1 });
  return {
    pipeline: 'x',
    hallucinationGate: false,
    simSeeds: [1, 2, 3],
    tasks: 1,
    turns: 1,
    successRate: est(success),
    successByKind: {},
    p50,
    p95: p50,
    meanLatency: p50,
    costPerTask: est(cost),
    cacheHitShare: 0,
    quality: { mean: est(quality), sd: 0, atLeast4: 0 },
    qualityAtTurn: { turn: 30, mean: est(NaN), n: 0 },
    failures: {
      runs: 3,
      tasksPerRun: 1,
      failed: 0,
      byCause: Object.fromEntries(FAILURE_CAUSES.map((c) => [c, 0])) as ProjectionResult['failures']['byCause'],
    },
    meanRho: 1,
    meanReasoning: 1,
    modelCallsPerTask: 1,
    extraCallsPerTask: 0,
  };
}

/** B's success depends on the gate recovery parameter; everything else is fixed. */
function project(params: ProjectionParams): Map<string, ProjectionResult> {
  const g = pv(params, 'failure.gateRecovery');
  return new Map([
    ['a', result(0.8, 2, 0.03, 4.0)],
    ['b', result(0.5 + 0.5 * g, 3, 0.02, 3.9)],
    ['c', result(0.7, 1, 0.05, 4.2)],
  ]);
}

describe('ranking helpers', () => {
  it("orders best first in the metric's direction; exact ties keep the input order", () => {
    const items = [
      { id: 'a', value: 2 },
      { id: 'b', value: 3 },
      { id: 'c', value: 1 },
      { id: 'd', value: 2 },
    ];
    expect(rankOrder(items, true)).toEqual(['b', 'a', 'd', 'c']);
    expect(rankOrder(items, false)).toEqual(['c', 'a', 'd', 'b']);
    expect(
      rankOrder(
        [
          { id: 'x', value: 1 },
          { id: 'y', value: 1.001 },
        ],
        true,
        0.01,
      ),
    ).toEqual(['x', 'y']);
  });

  it('Kendall tau: 1 same order, −1 reversed, one swap of three = 1/3', () => {
    expect(kendallTau(['a', 'b', 'c'], ['a', 'b', 'c'])).toBe(1);
    expect(kendallTau(['a', 'b', 'c'], ['c', 'b', 'a'])).toBe(-1);
    expect(kendallTau(['a', 'b', 'c'], ['b', 'a', 'c'])).toBeCloseTo(1 / 3, 12);
  });
});

const rows = await sensitivityAnalysis(project, PROJECTION_PARAMS, ['failure.gateRecovery', 'price.inputPerMTok']);

describe('sensitivity analysis on a hand-made case', () => {
  it('has a baseline row and one row per key and factor', () => {
    expect(rows.map((r) => [r.key, r.factor])).toEqual([
      [null, 1],
      ['failure.gateRecovery', 0.5],
      ['failure.gateRecovery', 1.5],
      ['price.inputPerMTok', 0.5],
      ['price.inputPerMTok', 1.5],
    ]);
    expect(rows[0]!.orders).toEqual({ success: ['b', 'a', 'c'], p50: ['c', 'a', 'b'], cost: ['b', 'a', 'c'], quality: ['c', 'a', 'b'] });
  });

  it('detects the success order flipping when the gate recovery halves, and nothing else', () => {
    const down = rows[1]!;
    expect(down.value).toBeCloseTo(0.35, 12);
    expect(down.orders.success).toEqual(['a', 'c', 'b']);
    expect(down.changed).toEqual(['success']);
    expect(down.tau.success).toBeCloseTo(-1 / 3, 12);
    expect(down.tau.cost).toBe(1);
    expect(down.bestBySuccess).toBe('a');
  });

  it('a move that keeps the order reports no change (value clamped at 1)', () => {
    const up = rows[2]!;
    expect(up.value).toBe(1);
    expect(up.changed).toEqual([]);
    expect(rows[3]!.changed).toEqual([]);
  });

  it('renders orders with the registry codes', () => {
    const t = sensitivityTable(
      rows,
      new Map([
        ['a', 'B1'],
        ['b', 'TA'],
        ['c', 'B4'],
      ]),
    );
    expect(t.rows[0]!.success).toBe('TA > B1 > B4');
    expect(t.rows[1]!.changed).toBe('success');
    expect(t.rows[2]!.changed).toBe('none');
    expect(t.columns.find((c) => c.key === 'success')!.kind).toBe('projected');
  });
});
