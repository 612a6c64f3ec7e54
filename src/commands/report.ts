import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { acquireRunLock } from '../results/lock.ts';
import { defaultReportsDir, RESULTS_DIR } from '../results/partial-run.ts';
import { checkCompleteRun } from '../results/run-files.ts';
import { InputError } from '../util/input-error.ts';
import type { CommandOutputs } from './command-outputs.ts';
import { parseOutputDir } from './output-dir.ts';

/** `report`: the reports of a results folder rendered again, without running anything. */
export function defineReportCommand(program: Command, { root, log }: CommandOutputs): void {
  program
    .command('report')
    .description('re-render reports from an existing results directory without re-running the bench')
    .option('--results <dir>', 'results directory', join(root, RESULTS_DIR))
    .option(
      '--reports <dir>',
      "reports directory (default: reports/ for results/, a partial run's own reports folder beside its results; required for any other results folder)",
      parseOutputDir,
    )
    .action(async (o: { results: string; reports?: string }) => {
      // Only one complete run, and not while a bench is writing it.
      if (!existsSync(o.results))
        throw new InputError(o.results, '', 'a results directory written by `npm run bench`', `nothing at ${resolve(o.results)}`);
      const reports = o.reports ?? defaultReportsDir(o.results, root);
      const lock = acquireRunLock(o.results, 'report');
      const reportsLock = resolve(reports) === resolve(o.results) ? undefined : acquireRunLock(reports, 'report');
      checkCompleteRun(o.results);
      const { renderReports } = await import('../report/render-reports.ts');
      await renderReports(o.results, reports, { log });
      reportsLock?.release();
      lock.release();
      log(`reports written to ${reports}`);
    });
}
