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
  return writeJsonLines(dir, `turns/${pipeline}.seed${seed}.jsonl`, records);
}

/** Writes a pipeline's events for one seed (none: no file); returns the file and its SHA-256. */
export function writeEvents(dir: string, pipeline: string, seed: number, events: readonly Record<string, unknown>[]): RunFile | undefined {
  if (events.length === 0) return undefined;
  return writeJsonLines(dir, `events/${pipeline}.seed${seed}.jsonl`, events);
}

/** Characters of JSON Lines encoded and written at a time. */
const CHUNK_CHARS = 1 << 20;

/**
 * One JSON text per line (no items: one empty line), hashed as written, in the lane that writes
 * it: the turn records and events are the largest files of a run, and reading them back to hash
 * them would cost the main thread time after the lanes end. Written in chunks, each encoded once
 * for the file and the hash, so no string or buffer of the whole file is made.
 */
function writeJsonLines(dir: string, path: string, items: readonly object[]): RunFile {
  const hash = createHash('sha256');
  function* chunks(): Generator<Uint8Array> {
    let lines: string[] = [];
    let chars = 0;
    const chunk = () => {
      const bytes = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
      hash.update(bytes);
      lines = [];
      chars = 0;
      return bytes;
    };
    for (const item of items) {
      const line = JSON.stringify(item);
      lines.push(line);
      chars += line.length + 1;
      if (chars >= CHUNK_CHARS) yield chunk();
    }
    if (lines.length || items.length === 0) yield chunk();
  }
  writeFileAtomic(join(dir, ...path.split('/')), chunks());
  return { path, sha256: hash.digest('hex') };
}

export function writeManifest(dir: string, manifest: RunManifest): void {
  const file: ManifestFile = { formatVersion: RESULTS_FORMAT_VERSION, ...manifest };
  writeFileAtomic(join(dir, MANIFEST_FILE), `${JSON.stringify(file, null, 2)}\n`);
}

export const TIMINGS_FILE = 'timings.json';

export function writeTimings(dir: string, timings: TimingReport): void {
  writeFileAtomic(join(dir, TIMINGS_FILE), `${JSON.stringify(timings, null, 2)}\n`);
}
