import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planRun } from '../../src/bench/plan/plan.ts';
import { PIPELINES } from '../../src/pipelines/registry.ts';
import type { TimingReport } from '../../src/util/step-timer.ts';
import { makeTempDir } from '../helpers/temp.ts';

const pipelines = PIPELINES.filter((p) => ['b1-full-schema', 'b2-static-pruning', 'adol-combined'].includes(p.id));
const run = { pipelines, studies: [], taskSets: [{ seed: 42, tasks: [] }] };

/** A results folder whose last run's timings give these wall seconds per pipeline. */
function folderWithTimings(seconds: Record<string, number>): string {
  const dir = makeTempDir('tooltax-plan-');
  const report: TimingReport = {
    steps: Object.entries(seconds).map(([id, wallSeconds]) => ({
      step: `  pipeline ${id}`,
      wallSeconds,
      unit: { kind: 'pipeline', id, lane: 0 },
    })),
    totalWallSeconds: 1,
    totalCpuSeconds: 1,
    peakRssMb: 1,
  };
  writeFileSync(join(dir, 'timings.json'), JSON.stringify(report));
  return dir;
}

describe('the order of a run’s units', () => {
  const ids = (dirs: string[]) => planRun(run, dirs).units.map((u) => u.id);

  it('is registry order without timings, costliest first by the first folder that has them', () => {
    const empty = makeTempDir('tooltax-plan-empty-');
    expect(ids([empty])).toEqual(['b1-full-schema', 'b2-static-pruning', 'adol-combined']);
    const last = folderWithTimings({ 'b1-full-schema': 5, 'b2-static-pruning': 2, 'adol-combined': 8 });
    // A run into a new folder is scheduled by the default folder's last run.
    expect(ids([empty, last])).toEqual(['adol-combined', 'b1-full-schema', 'b2-static-pruning']);
    // The run's own folder comes first.
    const own = folderWithTimings({ 'b1-full-schema': 5, 'b2-static-pruning': 9, 'adol-combined': 1 });
    expect(ids([own, last])).toEqual(['b2-static-pruning', 'b1-full-schema', 'adol-combined']);
  });
});
