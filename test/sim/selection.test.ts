import { describe, expect, it } from 'vitest';
import {
  anchoredConfusion,
  PROJECTION_PARAMS,
  SELECTION_ANCHOR,
  valuesOf,
  withParam,
  type ParamKey,
  type ProjectionParams,
} from '../../src/sim/projection/params.ts';
import { projectPipeline } from '../../src/sim/projection/project.ts';
import { othersAround, rightPickProbability } from '../../src/sim/selection.ts';
import { tasks } from './records.ts';

const P = PROJECTION_PARAMS;
const PV = valuesOf(P);
const none = { schemas: 0, summaries: 0, cliLines: 0 };

function set(params: ProjectionParams, values: Partial<Record<ParamKey, number>>): ProjectionParams {
  let p = params;
  for (const [k, v] of Object.entries(values) as [ParamKey, number][]) p = withParam(p, k, v);
  return p;
}

describe('tool selection model', () => {
  it('reproduces its anchor: 79.5% with the assumed 58 full schemas in view', () => {
    expect(P['selection.confusionPerSchema'].value).toBe(anchoredConfusion());
    const p = rightPickProbability({ ...none, schemas: SELECTION_ANCHOR.tools - 1 }, PV);
    expect(p).toBeCloseTo(SELECTION_ANCHOR.accuracy, 12);
  });

  it('is certain alone, falls as tools are added, and a summary or CLI line confuses less than a schema', () => {
    expect(rightPickProbability(none, PV)).toBe(1);
    const at = (n: number) => rightPickProbability({ ...none, schemas: n }, PV);
    expect(at(9)).toBeGreaterThan(at(29));
    expect(at(29)).toBeGreaterThan(at(119));
    const schema = rightPickProbability({ ...none, schemas: 100 }, PV);
    const summary = rightPickProbability({ ...none, summaries: 100 }, PV);
    const cli = rightPickProbability({ ...none, cliLines: 100 }, PV);
    expect(summary).toBeGreaterThan(schema);
    expect(cli).toBeGreaterThan(schema);
  });

  it('counts the others around the right tool by form', () => {
    expect(othersAround(10, 120, 'summary')).toEqual({ schemas: 9, summaries: 110, cliLines: 0 });
    expect(othersAround(2, 120, 'cli-line')).toEqual({ schemas: 1, summaries: 0, cliLines: 118 });
    expect(othersAround(0, 0, 'summary')).toEqual(none);
  });

  it('makes "wrong tool selected" a failure cause that grows with the tools in view and is skipped for tools chosen by discovery', () => {
    const noOther = set(P, { 'failure.baseErrorPerToolTurn': 0, 'failure.degradationErrorPerToolTurn': 0, 'selection.wrongRecovery': 0 });
    const shape = (listed: number, selected = 0) =>
      tasks(200, [
        { neededTools: ['srv/a'], schemaTools: Array.from({ length: listed }, (_, i) => (i ? `srv/x${i}` : 'srv/a')), selected },
      ]);
    const wrong = (records: ReturnType<typeof shape>) =>
      projectPipeline(records, noOther, 42, { bootstrap: false }).failures.byCause['wrong tool selected'];
    const few = wrong(shape(5));
    const many = wrong(shape(120));
    expect(many).toBeGreaterThan(few);
    // 120 schemas: 1 − P(right) ≈ 35% of 600 runs fail this way.
    const expected = 600 * (1 - rightPickProbability({ ...none, schemas: 119 }, valuesOf(noOther)));
    expect(Math.abs(many - expected)).toBeLessThan(0.25 * expected);
    expect(wrong(shape(120, 1))).toBe(0);
  });
});
