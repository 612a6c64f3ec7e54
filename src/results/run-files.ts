import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { InputError } from '../util/input-error.ts';
import { MANIFEST_FILE, type RunFile, type RunManifest } from './manifest.ts';
import { readManifest } from './read.ts';

/**
 * The folders of a results directory a bench run writes into (see write.ts; the pipelines' θ
 * calibrations in calibration/ and the studies' own in studies/, nested). A user may keep files
 * of their own there too: a run owns only the files its manifest lists.
 */
const RUN_OUTPUT_DIRS = ['tables', 'turns', 'events', 'calibration', 'studies'] as const;
const RUN_OUTPUT_FILE = /\.(json|jsonl)$/;

/** The output-like files in a results directory before a run wrote anything, by path, with their identity on disk. */
export type OutputSnapshot = ReadonlyMap<string, string>;

/**
 * Where startRun moves the previous run's files, inside the results folder: a unit restored from
 * its record takes its files back from there (src/results/unit-store.ts) instead of writing them
 * again; endRun removes what is left.
 */
const PREVIOUS_RUN_DIR = '.previous-run';

/**
 * Before a run writes anything: removes the previous run's manifest first (so a run that is
 * killed leaves no run.json and `report` refuses it), then moves the files that manifest lists
 * aside (PREVIOUS_RUN_DIR), and nothing else: the user's own files (a notes.json under studies/,
 * the AACP registry) and the files of a run that did not finish (which no manifest lists, so
 * nothing reads them) stay. Returns what is left, so the new run's manifest lists only the
 * files it writes.
 */
export function startRun(dir: string): OutputSnapshot {
  const listed = previousRunFiles(dir);
  rmSync(join(dir, MANIFEST_FILE), { force: true });
  endRun(dir);
  for (const path of listed) {
    const aside = previousRunCopy(dir, path);
    mkdirSync(dirname(aside), { recursive: true });
    try {
      renameSync(join(dir, ...path.split('/')), aside);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return snapshot(dir);
}

/** Where startRun put the previous run's file `path` (relative, `/`-separated), if it was there. */
export function previousRunCopy(dir: string, path: string): string {
  return join(dir, PREVIOUS_RUN_DIR, ...path.split('/'));
}

/** Removes the previous run's files that this run did not take back (startRun). */
export function endRun(dir: string): void {
  rmSync(join(dir, PREVIOUS_RUN_DIR), { recursive: true, force: true });
}

/**
 * The output files of the run in `dir`, with their SHA-256, for the manifest: every one not in
 * `before` or replaced since (a rewrite is a new file: writeFileAtomic renames over the path),
 * and those of `restored` (a restored unit's files, which a killed run may have left in place).
 * `known` hashes (taken as the files were written) are not read again.
 */
export function runFiles(
  dir: string,
  before: OutputSnapshot = new Map(),
  known: ReadonlyMap<string, string> = new Map(),
  restored: readonly string[] = [],
): RunFile[] {
  const now = snapshot(dir);
  const own = new Set(restored);
  return [...now]
    .filter(([path, identity]) => before.get(path) !== identity || own.has(path))
    .map(([path]) => ({ path, sha256: known.get(path) ?? sha256(join(dir, ...path.split('/'))) }));
}

/** The files a previous run's manifest lists, as safe relative paths inside the run's folders (an unreadable manifest lists none). */
function previousRunFiles(dir: string): string[] {
  let manifest: RunManifest | undefined;
  try {
    manifest = readManifest(dir);
  } catch {
    return [];
  }
  const files = Array.isArray(manifest?.files) ? manifest.files : [];
  return files.map((f) => (f as Partial<RunFile>)?.path).filter((p): p is string => typeof p === 'string' && isRunOutputPath(p));
}

/** `tables/x.json`, `studies/a/b.json`: under a run folder, no `.`/`..` or empty segment, an output file name. */
function isRunOutputPath(path: string): boolean {
  const parts = path.split('/');
  return (
    parts.length >= 2 &&
    (RUN_OUTPUT_DIRS as readonly string[]).includes(parts[0]!) &&
    parts.every((p) => p !== '' && p !== '.' && p !== '..' && !p.includes('\\')) &&
    RUN_OUTPUT_FILE.test(path)
  );
}

function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const sub of RUN_OUTPUT_DIRS) {
    for (const f of listOutputs(join(dir, sub))) {
      const st = statSync(join(dir, sub, f));
      out.set(`${sub}/${f}`, `${st.ino}:${st.size}:${st.mtimeMs}`);
    }
  }
  return out;
}

/**
 * Refuses a results directory that is not exactly one complete run: no run.json (never run, or
 * a run that did not finish), a manifest without its file list (an older tooltax), or a listed
 * file missing or changed since. Files no manifest lists (the user's own, a run that did not
 * finish) are not the run's: reports read only the listed ones (read.ts).
 */
export function checkCompleteRun(dir: string): RunManifest {
  const manifest = readManifest(dir);
  const path = join(dir, MANIFEST_FILE);
  if (!manifest)
    throw new InputError(
      path,
      '',
      'the manifest of a finished bench run',
      'none: no bench run finished in this folder; run `npm run bench` first, or name a finished run with --results <dir>',
    );
  if (!Array.isArray(manifest.files))
    throw new InputError(path, '$.files', 'the list of files the run wrote', 'none (written by an older tooltax; rerun the bench)');
  const listed = new Map(manifest.files.map((f) => [f.path, f.sha256]));
  for (const [file, hash] of listed) {
    if (typeof file !== 'string' || !isRunOutputPath(file))
      throw new InputError(path, '$.files', 'paths of output files inside the results folder', JSON.stringify(String(file).slice(0, 80)));
    const full = join(dir, file);
    if (!existsSync(full)) throw new InputError(full, '', 'a file of the run in run.json', 'nothing (the folder holds an incomplete run)');
    if (sha256(full) !== hash)
      throw new InputError(full, '', 'the file the run in run.json wrote', 'a changed file (another run wrote here)');
  }
  return manifest;
}

/** Output files below `dir`, as sorted paths relative to it with `/` separators. */
function listOutputs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && RUN_OUTPUT_FILE.test(e.name))
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}
