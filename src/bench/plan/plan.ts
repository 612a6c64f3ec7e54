import type { PipelineEntry } from '../../pipelines/types.ts';
import type { RunIdentity } from '../../results/shard-part.ts';
import { readPreviousTimings } from '../../results/timings.ts';
import { taskSetsRunBy } from '../../studies/common.ts';
import type { Study, TaskSet } from '../../studies/types.ts';
import { codeFingerprint } from '../../util/provenance.ts';
import type { BenchUnit } from '../types.ts';
import { planShards, unitKey } from './shards.ts';

/** What a run will run, in the order lanes prefer it (phase 3). Only the schedule depends on the order, never a result. */
export interface RunPlan {
  /** Every unit: pipelines, then the studies of their results, then the others (each group costliest first). */
  units: BenchUnit[];
  /** The pipeline units (none for a catalog without tasks), in registry order. */
  pipelineUnits: BenchUnit[];
  /** The units a shard may take: those that read nothing but the inputs, in registry order. */
  shardable: BenchUnit[];
  /** Each unit's wall seconds in the previous run (unitKey → s). */
  previous: ReadonlyMap<string, number>;
}

/**
 * `timingsDirs`: the results folders whose last run's timings order the units, the first that
 * has them (the run's own, then the default one: a run into a new folder is scheduled by the
 * last run on this machine rather than in registry order).
 */
export function planRun(
  run: { pipelines: readonly PipelineEntry[]; studies: readonly Study[]; taskSets: readonly TaskSet[] },
  timingsDirs: readonly string[],
): RunPlan {
  const previous = previousUnitSeconds(timingsDirs);
  const pipelineUnits = run.taskSets.length ? run.pipelines.map((e) => ({ kind: 'pipeline' as const, id: e.id })) : [];
  const studyUnits = (reads: boolean) =>
    run.studies.filter((s) => s.readsPipelineResults === reads).map((s) => ({ kind: 'study' as const, id: s.id }));
  return {
    // Pipelines, then the studies of their results (as soon as they can run), then the others.
    units: [
      ...costliestFirst(pipelineUnits, previous),
      ...costliestFirst(studyUnits(true), previous),
      ...costliestFirst(studyUnits(false), previous),
    ],
    pipelineUnits,
    // The studies of the pipelines' results run where the parts are merged.
    shardable: [...pipelineUnits, ...studyUnits(false)],
    previous,
  };
}

/**
 * What must be equal in every part of a sharded run (settings, inputs, code, the split of the
 * shardable units over `count` shards): the same from the same checkout and options, whatever
 * this machine's timings.
 */
export function runIdentity(
  plan: RunPlan,
  run: {
    pipelines: readonly PipelineEntry[];
    studies: readonly Study[];
    taskSets: readonly TaskSet[];
    root: string;
    settings: Record<string, unknown>;
    inputs: string;
  },
  count: number,
): RunIdentity {
  const costOf = (unit: BenchUnit) =>
    unit.kind === 'pipeline'
      ? taskSetsRunBy(
          run.pipelines.find((e) => e.id === unit.id)!,
          run.taskSets,
        ).length
      : (run.studies.find((s) => s.id === unit.id)?.scheduling?.cost ?? 1);
  return {
    settings: run.settings,
    inputs: run.inputs,
    code: codeFingerprint(run.root),
    v8: process.versions.v8,
    plan: planShards(
      plan.shardable.map((unit) => ({ unit, cost: costOf(unit) })),
      count,
    ).map((list) => list.map(unitKey)),
  };
}

/** Each unit's wall seconds in the previous run's timings.json, when there is one. */
function previousUnitSeconds(timingsDirs: readonly string[]): Map<string, number> {
  const report = timingsDirs.map(readPreviousTimings).find((r) => r !== undefined);
  return new Map(
    (report?.steps ?? []).filter((s) => s.unit).map((s) => [`${s.unit!.kind}/${s.unit!.id}`, s.unit!.ranSeconds ?? s.wallSeconds]),
  );
}

/** Units ordered by their previous wall time, longest first (ties and unknown units keep registry order): only the schedule changes, never a result. */
function costliestFirst<U extends BenchUnit>(units: U[], previous: ReadonlyMap<string, number>): U[] {
  const cost = (u: U) => previous.get(`${u.kind}/${u.id}`) ?? 0;
  return units
    .map((u, i) => ({ u, i }))
    .sort((a, b) => cost(b.u) - cost(a.u) || a.i - b.i)
    .map((x) => x.u);
}
