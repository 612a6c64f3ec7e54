import { BENCH_REGISTRY } from '../../src/bench/units.ts';
import { describe, expect, it } from 'vitest';
import type { BenchUnit } from '../../src/bench/types.ts';
import { endsThreadApart, laneChooser, RELEASE_LANE } from '../../src/bench/plan/schedule.ts';

// Pipelines first (two run on the first seed only), then the study of their results (projection reads them), then independent studies.
const units: BenchUnit[] = [
  { kind: 'pipeline', id: 'ta-k5' },
  { kind: 'pipeline', id: 'adol-short' },
  { kind: 'study', id: 'projection' },
  { kind: 'study', id: 'kv-schema' },
];
const seconds = (p1: number, p2: number, projection: number, kv: number) =>
  new Map([
    ['pipeline/ta-k5', p1],
    ['pipeline/adol-short', p2],
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

  it('lane 0 takes a pipeline whenever one is ready, and leaves the studies kept for the worker to it unless nothing else runs', () => {
    // The study of the results (10 s) can only start after both pipelines: kv-schema (9 s) is kept to run beside it.
    const choose = laneChooser(units, seconds(6, 1, 10, 9), 2, () => false);
    expect(choose([0, 1, 2, 3], 0, 1)).toBe(0);
    expect(choose([1, 2, 3], 0, 1)).toBe(1);
    expect(choose([2, 3], 0, 1)).toBeUndefined(); // waits for the worker's pipeline, then runs its tail
    expect(choose([2, 3], 0, 0)).toBe(3); // nothing else under way: it must not end with a unit left
    // A lane alone keeps nothing back.
    expect(laneChooser(units, seconds(6, 1, 10, 9), 1, () => false)([2, 3], 0, 1)).toBe(3);
  });
});

describe('laneChooser, worker lane', () => {
  it('takes the costliest unit it may run, study or pipeline, once it has previous times', () => {
    // No tail to run beside (the study of the results took no time): kv-schema (9 s) is taken ahead of both pipelines.
    expect(laneChooser(units, seconds(6, 1, 0, 9), 2, () => false)(all, 1, 1)).toBe(3);
    expect(laneChooser(units, seconds(6, 1, 0, 2), 2, () => false)(all, 1, 1)).toBe(0);
    // Nor is a study much longer than the tail kept for it (9 s beside 2 s would end the worker last).
    expect(laneChooser(units, seconds(6, 1, 2, 9), 2, () => false)(all, 1, 1)).toBe(3);
    // Without previous times: the list's order (pipelines first).
    expect(laneChooser(units, new Map(), 2, () => false)([1, 2, 3], 1, 1)).toBe(1);
  });

  it('leaves the pipelines of every seed (the largest records) to lane 0 while it has anything else', () => {
    const mixed: BenchUnit[] = [{ kind: 'pipeline', id: 'b1-full-schema' }, units[0]!, units[3]!];
    const times = new Map([
      ['pipeline/b1-full-schema', 9],
      ['pipeline/ta-k5', 1],
      ['study/kv-schema', 2],
    ]);
    const choose = laneChooser(mixed, times, 2, () => false);
    expect(choose([0, 1, 2], 1, 1)).toBe(2);
    expect(choose([0, 1], 1, 1)).toBe(1);
    expect(choose([0], 1, 1)).toBe(0); // nothing else left: better than lane 0 alone
  });

  it('keeps independent studies as long as the tail for its end: pipelines first, then those studies, then it ends', () => {
    const choose = laneChooser(units, seconds(6, 1, 10, 9), 2, () => false);
    expect(choose(all, 1, 1)).toBe(0);
    expect(choose([1, 2, 3], 1, 1)).toBe(1);
    expect(choose([2, 3], 1, 1)).toBe(3);
    expect(choose([2], 1, 1)).toBe(RELEASE_LANE);
  });
});

describe('the thread apart (StudyScheduling.ownThread)', () => {
  const apart: BenchUnit[] = [
    { kind: 'study', id: 'retrieval' },
    { kind: 'study', id: 'scaling' },
    { kind: 'pipeline', id: 'ta-k5' },
    { kind: 'study', id: 'kv-schema' },
  ];

  it('a worker lane takes the studies that need it first, one after another', () => {
    const choose = laneChooser(apart, new Map(), 2, () => false);
    expect(choose([0, 1, 2, 3], 1, 1)).toBe(0);
    expect(choose([1, 2, 3], 1, 1)).toBe(1);
  });

  it('ends after the last of them, not after each', () => {
    expect(endsThreadApart(apart, [true, false, false, false], 0, BENCH_REGISTRY)).toBe(false); // scaling is still to run on it
    expect(endsThreadApart(apart, [true, true, false, false], 1, BENCH_REGISTRY)).toBe(true);
    expect(endsThreadApart(apart, [true, true, true, false], 2, BENCH_REGISTRY)).toBe(false); // a pipeline needs no thread apart
    expect(endsThreadApart(apart, [true, true, true, true], 3, BENCH_REGISTRY)).toBe(false);
  });
});
