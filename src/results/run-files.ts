import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { InputError } from '../util/input-error.ts';
import { MANIFEST_FILE, type RunFile, type RunManifest } from './manifest.ts';
import { readManifest } from './read.ts';

/**
 * The folders of a results directory that one bench run writes in full (see write.ts; the
 * pipelines' θ calibrations in calibration/ and the studies' own in studies/, nested).
 */
const RUN_OUTPUT_DIRS = ['tables', 'turns', 'events', 'calibration', 'studies'] as const;
const RUN_OUTPUT_FILE = /\.(json|jsonl)$/;

/**
 * Before a run writes anything: remove the previous run's manifest first (so a run that is
 * killed leaves no run.json and `report` refuses it), then its tables, turn records and events
 * (so nothing of an older run sits beside the new one). Only the bench's own output files are
 * removed; other files in the folder (the AACP registry, a user's notes) are kept.
 */
export function clearRunOutputs(dir: string): void {
  rmSync(join(dir, MANIFEST_FILE), { force: true });
  for (const sub of RUN_OUTPUT_DIRS) {
    for (const f of listOutputs(join(dir, sub))) rmSync(join(dir, sub, f), { force: true });
  }
}

/** Every output file of the run in `dir`, with its SHA-256, for the manifest; `known` hashes (taken as the files were written) are not read again. */
export function runFiles(dir: string, known: ReadonlyMap<string, string> = new Map()): RunFile[] {
  return RUN_OUTPUT_DIRS.flatMap((sub) =>
    listOutputs(join(dir, sub)).map((f) => {
      const path = `${sub}/${f}`;
      return { path, sha256: known.get(path) ?? sha256(join(dir, sub, f)) };
    }),
  );
}

/**
 * Refuses a results directory that is not exactly one complete run: no run.json (never run, or
 * a run that did not finish), a manifest without its file list (an older tooltax), a listed
 * file missing or changed since, or an output file no manifest lists (left by another run).
 */
export function checkCompleteRun(dir: string): RunManifest {
  const manifest = readManifest(dir);
  const path = join(dir, MANIFEST_FILE);
  if (!manifest) throw new InputError(path, '', 'the manifest of a finished bench run', 'none (the run did not finish, or never ran here)');
  if (!Array.isArray(manifest.files))
    throw new InputError(path, '$.files', 'the list of files the run wrote', 'none (written by an older tooltax; rerun the bench)');
  const listed = new Map(manifest.files.map((f) => [f.path, f.sha256]));
  for (const [file, hash] of listed) {
    const full = join(dir, file);
    if (!existsSync(full)) throw new InputError(full, '', 'a file of the run in run.json', 'nothing (the folder holds an incomplete run)');
    if (sha256(full) !== hash)
      throw new InputError(full, '', 'the file the run in run.json wrote', 'a changed file (another run wrote here)');
  }
  for (const f of runFiles(dir).map((x) => x.path)) {
    if (!listed.has(f)) throw new InputError(join(dir, f), '', 'only files of the run in run.json', 'a file of another run (runs mixed)');
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
