import { join, resolve } from 'node:path';
import type { Catalog } from '../catalog/types.ts';
import { acquireRunLock, type RunLock } from '../results/lock.ts';
import { checkOutputDir } from '../results/output-dir.ts';
import { REPORTS_DIR, RESULTS_DIR } from '../results/partial-run.ts';
import { endRun, startRun, type OutputSnapshot } from '../results/run-files.ts';
import { clearPart } from '../results/shard-part.ts';
import { childDir } from '../util/paths.ts';
import type { BenchOptions } from './options.ts';
import type { Execution } from './execute/types.ts';

/** Where a run writes, held for it alone (the folders' locks), and what was there before it. */
export interface RunFolders {
  resultsDir: string;
  reportsDir: string;
  /** The results folder's files before the run (the manifest lists only the run's own). */
  before: OutputSnapshot;
  release(): void;
}

/** Explicit output folders are checked before anything is written (the defaults once the catalog names them). */
export function checkOutputOptions(opts: Pick<BenchOptions, 'out' | 'reports'>): void {
  if (opts.out) checkOutputDir(opts.out, '--out');
  if (opts.reports) checkOutputDir(opts.reports, '--reports');
}

/**
 * The run's folders, checked and locked: one writer per folder at a time (results and reports),
 * and nothing of the previous run left beside this one (the files its manifest lists are
 * removed, nothing else).
 */
export function openFolders(opts: BenchOptions, catalog: Catalog, execution: Execution): RunFolders {
  const named = opts.catalog ? catalog.name : '';
  const resultsDir = resolve(opts.out ?? execution.defaultResultsDir(childDir(join(opts.root, RESULTS_DIR), named, '--catalog')));
  const reportsDir = resolve(opts.reports ?? childDir(join(opts.root, REPORTS_DIR), named, '--catalog'));
  checkOutputDir(resultsDir, '--out');
  if (execution.writesRun) checkOutputDir(reportsDir, '--reports');
  const command = `bench${opts.catalog ? ` --catalog ${opts.catalog.join(',')}` : ''}${execution.command}`;
  const lock = acquireRunLock(resultsDir, command);
  const reportsLock: RunLock | undefined =
    !execution.writesRun || reportsDir === resultsDir ? undefined : acquireRunLock(reportsDir, command);
  const before = startRun(resultsDir);
  clearPart(resultsDir);
  execution.openedFolder?.(resultsDir);
  return {
    resultsDir,
    reportsDir,
    before,
    release: () => {
      endRun(resultsDir);
      reportsLock?.release();
      lock.release();
    },
  };
}
