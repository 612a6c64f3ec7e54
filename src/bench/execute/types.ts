import type { RunInputs } from '../inputs.ts';
import type { BenchOptions } from '../options.ts';
import type { RunPlan } from '../plan/plan.ts';
import type { BenchUnit, PipelineRun, StudyRun } from '../types.ts';
import type { BenchRegistry } from '../units.ts';
import type { StepTimer } from '../../util/step-timer.ts';
import type { BenchLanes } from './lanes.ts';
import type { Collected } from './collect.ts';

/** What an execution strategy is given: the run's plan, its lanes, and where results go. */
export interface ExecuteContext {
  opts: BenchOptions;
  registry: BenchRegistry;
  inputs: RunInputs;
  plan: RunPlan;
  lanes: BenchLanes;
  resultsDir: string;
  timer: StepTimer;
  /** Where the results of a run that writes tables go (unused by a shard). */
  collected: Collected;
  /** Each unit's fingerprint by unit key (./plan/fingerprint.ts); a unit without one always runs. */
  fingerprints: ReadonlyMap<string, string>;
  /** `--fresh`: run every unit, whatever is recorded. */
  fresh: boolean;
  /** Logs a unit that ran and records its time (./run-units.ts calls it once per unit it ran). */
  finished(unit: BenchUnit, result: PipelineRun | StudyRun, lane: number): void;
}

/**
 * How a run's units are executed (phase 4), the one thing that differs between a local run,
 * one shard of a split run and the merge of the shards' parts. Every other phase is the same
 * code for the three; the units compute the same result under each.
 */
export interface Execution {
  /** What the folders' lock names after `bench`: `''`, ` --shard i/n`, ` merge`. */
  readonly command: string;
  /** False for a shard: its part folder holds unit results; the merge writes the tables, manifest and reports. */
  readonly writesRun: boolean;
  /** True for a merge, which runs no pipeline: nothing to embed or train up front, and one lane (the studies of the results). */
  readonly merges: boolean;
  /** The results folder when --out is not given, from the run's default. */
  defaultResultsDir(runDefault: string): string;
  /** Called once the results folder is locked and cleared (a shard notes what was there before it). */
  openedFolder?(resultsDir: string): void;
  /** Runs (or reads) this process's units, handing each to `ctx.finished`. */
  execute(ctx: ExecuteContext): Promise<void>;
}
