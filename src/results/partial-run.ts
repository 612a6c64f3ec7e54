import { basename, dirname, join, relative, resolve, isAbsolute } from 'node:path';
import { InputError } from '../util/input-error.ts';
import { catalogNameFromPaths, childDir } from '../util/paths.ts';

/**
 * A partial run keeps its hands off the committed reports. A bench narrowed by --quick,
 * --pipelines, --studies or --catalog writes to a scratch folder under results/ (ignored by
 * git) unless the user names both output folders (--out and --reports) or asks for the default
 * ones with --force; and its reports say what it left out (RunManifest.partial).
 */

/** The bench's options this module reads. */
export interface PartialRunOptions {
  quick: boolean;
  pipelines?: string[];
  studies?: string[];
  catalog?: string[];
  out?: string;
  reports?: string;
  force?: boolean;
}

/** The default output folders of a run, under the project folder: its results and their reports. */
export const RESULTS_DIR = 'results';
export const REPORTS_DIR = 'reports';

/** Where partial runs write, under the project folder: `results/partial/[<catalog>/]{results,reports}`. */
export const SCRATCH_DIR = join(RESULTS_DIR, 'partial');

/** The options that narrow what a run measures (never --catalog: a run on the user's catalog is whole on it), as typed. */
function narrowingOptions(o: Pick<PartialRunOptions, 'quick' | 'pipelines' | 'studies'>): string[] {
  return [
    ...(o.quick ? ['--quick'] : []),
    ...(o.pipelines ? [`--pipelines ${o.pipelines.join(',')}`] : []),
    ...(o.studies ? [`--studies ${o.studies.join(',')}`] : []),
  ];
}

/** RunManifest.partial of a run with these options: what narrowed it and, with --studies, the studies that ran; undefined for a whole run. */
export function manifestPartial(o: Pick<PartialRunOptions, 'quick' | 'pipelines' | 'studies'>, studies: readonly string[]) {
  const options = narrowingOptions(o);
  if (options.length === 0) return undefined;
  return o.studies ? { options, studies: [...studies] } : { options };
}

/**
 * The output folders of a bench: as given, or the scratch folders of a partial run, or (for a
 * whole run, or with --force) undefined for the bench's defaults. `note`: what to tell the user.
 */
export function benchOutputDirs(o: PartialRunOptions, root: string): { out?: string; reports?: string; note?: string } {
  const why = [...narrowingOptions(o), ...(o.catalog ? ['--catalog'] : [])];
  if (why.length === 0 || o.force || (o.out && o.reports)) return { out: o.out, reports: o.reports };
  const scratch = childDir(join(root, SCRATCH_DIR), o.catalog ? catalogNameFromPaths(o.catalog) : '', '--catalog');
  const out = o.out ?? join(scratch, RESULTS_DIR);
  const reports = o.reports ?? join(scratch, REPORTS_DIR);
  const redirected = [o.out ? '' : out, o.reports ? '' : reports].filter(Boolean).join(' and ');
  return {
    out,
    reports,
    note: `a partial run (${why.join(', ')}) writes to ${redirected}, not the default folders (give --out and --reports, or --force for the defaults)`,
  };
}

/**
 * Where `report` renders a results folder when --reports is not given: reports/ for results/,
 * and for a partial run's scratch results (`results/partial/…/results`) the reports folder
 * beside them, where the bench wrote them. Any other folder's reports are named by the user, so
 * that reports/ only ever shows the default run.
 */
export function defaultReportsDir(resultsDir: string, root: string): string {
  const results = resolve(resultsDir);
  if (results === resolve(root, RESULTS_DIR)) return join(root, REPORTS_DIR);
  const fromScratch = relative(resolve(root, SCRATCH_DIR), results);
  if (basename(results) === RESULTS_DIR && fromScratch && !fromScratch.startsWith('..') && !isAbsolute(fromScratch))
    return join(dirname(results), REPORTS_DIR);
  throw new InputError(
    '--reports',
    '',
    `the folder to write the reports of ${resultsDir} to (reports/ holds those of results/ only)`,
    'none given',
  );
}
