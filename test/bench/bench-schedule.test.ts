import { describe, expect, it } from 'vitest';
import type { BenchUnit } from '../../src/commands/bench-inputs.ts';
import { RELEASE_LANE } from '../../src/commands/bench-lanes.ts';
import { laneChooser } from '../../src/commands/bench-schedule.ts';

// Pipelines first, then the study of their results (projection reads them), then independent studies.
const units: BenchUnit[] = [
  { kind: 'pipeline', id: 'b1-full-schema' },
  { kind: 'pipeline', id: 'b2-static-pruning' },
  { kind: 'study', id: 'projection' },
  { kind: 'study', id: 'kv-schema' },
];
const seconds = (b1: number, b2: number, projection: number, kv: number) =>
  new Map([
    ['pipeline/b1-full-schema', b1],
    ['pipeline/b2-static-pruning', b2],
    ['study/projection', projection],
    ['study/kv-schema', kv],
  ]);
const all = [0, 1, 2, 3];

describe('laneChooser', () => {
  it('without previous times: lane 0 takes pipelines first; a worker releases when only studies of the results are left', () => {
    const choose = laneChooser(units, new Map(), 2, () => false);
    expect(choose(all, 0, 0)).toBe(0);
    expect(choose([2], 1, 1)).toBe(RELEASE_LANE);
    expect(choose([2], 0, 1)).toBeUndefined(); // the study of the results waits for the pipelines
    expect(laneChooser(units, new Map(), 2, () => true)([2], 0, 0)).toBe(2);
  });

  it('lane 0 leaves a pipeline to a busy worker when it would otherwise end last, and never waits on an idle one', () => {
    // Lane 0 still has the 10 s study of the results to run: a 6 s pipeline here would end it at 16 s, the worker's share at 1 s.
    const choose = laneChooser(units, seconds(6, 1, 10, 9), 2, () => false);
    expect(choose([0, 1, 2, 3], 0, 1)).toBeUndefined();
    expect(choose([0, 1, 2, 3], 0, 0)).toBe(0);
    // A study short enough to end before the worker's pipelines fills the wait.
    expect(laneChooser(units, seconds(6, 1, 10, 0.5), 2, () => false)([0, 1, 2, 3], 0, 1)).toBe(3);
    // A lane alone takes whatever it can.
    expect(laneChooser(units, seconds(6, 1, 10, 9), 1, () => false)([0, 1, 2, 3], 0, 0)).toBe(0);
  });

  it('lane 0 takes a pipeline while the worker has more left than lane 0 would', () => {
    const choose = laneChooser(units, seconds(1, 20, 2, 5), 2, () => false);
    expect(choose([0, 1, 2, 3], 0, 1)).toBe(0);
  });
});

describe('laneChooser, worker lane', () => {
  it('takes the costliest unit it may run, study or pipeline, once it has previous times', () => {
    // kv-schema (9 s) is independent: ahead of both pipelines, so the lanes end on short units.
    expect(laneChooser(units, seconds(6, 1, 10, 9), 2, () => false)(all, 1, 1)).toBe(3);
    expect(laneChooser(units, seconds(6, 1, 10, 2), 2, () => false)(all, 1, 1)).toBe(0);
    // Without previous times: the list's order (pipelines first).
    expect(laneChooser(units, new Map(), 2, () => false)([1, 2, 3], 1, 1)).toBe(1);
  });
});
