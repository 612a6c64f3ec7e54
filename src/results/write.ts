import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Table } from '../table/table.ts';
import { writeFileAtomic } from '../util/files.ts';
import type { TimingReport } from '../util/step-timer.ts';
import { RESULTS_FORMAT_VERSION, type ManifestFile, type TableFile } from './format.ts';
import { MANIFEST_FILE, type RunFile, type RunManifest } from './manifest.ts';

/**
 * The results directory is the only thing reports read:
 *   run.json                       the RunManifest: what ran (./manifest.ts)
 *   tables/<id>.json               every table, as data (rows + column kinds)
 * (both with the results format version, checked on read: ./format.ts)
 *   turns/<pipeline>.seed<n>.jsonl one measured record per turn
 *   events/<pipeline>.seed<n>.jsonl structured events (routing decisions...)
 *   timings.json                   wall/CPU seconds per step of the run (differs between runs)
 */
export function writeTableResult(dir: string, table: Table): void {
  const file: TableFile = { formatVersion: RESULTS_FORMAT_VERSION, ...table };
  writeFileAtomic(join(dir, 'tables', `${table.id}.json`), `${JSON.stringify(file, null, 1)}\n`);
}

/** Writes a pipeline's turn records for one seed; returns the file and its SHA-256 for the run's manifest. */
export function writeTurnRecords(dir: string, pipeline: string, seed: number, records: readonly object[]): RunFile {
  return writeRunFile(dir, `turns/${pipeline}.seed${seed}.jsonl`, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

/** Writes a pipeline's events for one seed (none: no file); returns the file and its SHA-256. */
export function writeEvents(dir: string, pipeline: string, seed: number, events: readonly Record<string, unknown>[]): RunFile | undefined {
  if (events.length === 0) return undefined;
  return writeRunFile(dir, `events/${pipeline}.seed${seed}.jsonl`, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
}

/**
 * Hashed as written, in the lane that writes it: the turn records and events are the largest files of a run,
 * and reading them back to hash them would cost the main thread time after the lanes end.
 */
function writeRunFile(dir: string, path: string, text: string): RunFile {
  writeFileAtomic(join(dir, ...path.split('/')), text);
  return { path, sha256: createHash('sha256').update(text, 'utf8').digest('hex') };
}

export function writeManifest(dir: string, manifest: RunManifest): void {
  const file: ManifestFile = { formatVersion: RESULTS_FORMAT_VERSION, ...manifest };
  writeFileAtomic(join(dir, MANIFEST_FILE), `${JSON.stringify(file, null, 2)}\n`);
}

export const TIMINGS_FILE = 'timings.json';

export function writeTimings(dir: string, timings: TimingReport): void {
  writeFileAtomic(join(dir, TIMINGS_FILE), `${JSON.stringify(timings, null, 2)}\n`);
}
