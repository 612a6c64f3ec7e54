import type { Encoder } from '../embed/types.ts';
import { MEASUREMENT_PARAMS } from '../measure/params.ts';
import { runFiles, type OutputSnapshot } from '../results/run-files.ts';
import { writeManifest, writeTableResult } from '../results/write.ts';
import type { RunManifest } from '../results/manifest.ts';
import { manifestPartial } from '../results/partial-run.ts';
import type { BenchOptions } from './options.ts';
import type { Table } from '../table/table.ts';
import { gitCommit, packageVersion } from '../util/provenance.ts';
import type { StepTimer } from '../util/step-timer.ts';
import type { Collected } from './execute/collect.ts';
import type { RunInputs } from './inputs.ts';
import type { RunClock } from './clock.ts';

/** The run's settings the manifest records: its root, and what narrowed it. */
export function runSettings(opts: Pick<BenchOptions, 'root' | 'quick' | 'pipelines' | 'studies'>, studies: readonly { id: string }[]) {
  return {
    root: opts.root,
    quick: opts.quick,
    partial: manifestPartial(
      opts,
      studies.map((s) => s.id),
    ),
  };
}

/** What the manifest says of a run besides its inputs and results. */
export interface RunRecord {
  root: string;
  quick: boolean;
  encoder: Encoder;
  resultsDir: string;
  /** What narrowed the run (--quick, --pipelines, --studies), when anything did. */
  partial?: RunManifest['partial'];
  /** The results folder's files before the run. */
  before: OutputSnapshot;
  clock: RunClock;
}

/** Writes the run's tables, then its manifest (run.json), which lists every file the run wrote (phase 5). */
export async function writeRun(
  inputs: RunInputs,
  tables: readonly Table[],
  collected: Collected,
  run: RunRecord,
  timer: StepTimer,
): Promise<void> {
  const { resultsDir } = run;
  await timer.time('write results', () => {
    for (const t of tables) writeTableResult(resultsDir, t);
  });
  const { catalog, taskSets, host } = inputs;
  writeManifest(resultsDir, {
    tool: 'tooltax',
    version: packageVersion(run.root),
    commit: gitCommit(run.root),
    ...run.clock.span(),
    catalog: { name: catalog.name, source: catalog.source, tools: catalog.tools.length, servers: catalog.servers },
    tasks: { source: inputs.tasksSource, perSeed: taskSets.map((t) => ({ seed: t.seed, tasks: t.tasks.length })) },
    tokenizer: inputs.tokenizer,
    host: { id: host.id, label: host.label },
    encoder: { name: run.encoder.name, description: run.encoder.description },
    seeds: taskSets.map((s) => s.seed),
    quick: run.quick,
    partial: run.partial,
    pipelines: collected.ran,
    measurementParams: MEASUREMENT_PARAMS,
    tableOrder: tables.map((t) => t.id),
    files: runFiles(resultsDir, run.before, collected.knownFiles(), collected.restoredFiles),
  });
}
