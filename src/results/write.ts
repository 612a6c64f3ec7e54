import { join } from 'node:path';
import type { Table } from '../table/table.ts';
import { writeFileAtomic } from '../util/files.ts';
import type { TimingReport } from '../util/step-timer.ts';
import { MANIFEST_FILE, type RunManifest } from './manifest.ts';

/**
 * The results directory is the only thing reports read:
 *   run.json                       the RunManifest: what ran (./manifest.ts)
 *   tables/<id>.json               every table, as data (rows + column kinds)
 *   turns/<pipeline>.seed<n>.jsonl one measured record per turn
 *   events/<pipeline>.seed<n>.jsonl structured events (routing decisions...)
 *   timings.json                   wall/CPU seconds per step of the run (differs between runs)
 */
export function writeTableResult(dir: string, table: Table): void {
  writeFileAtomic(join(dir, 'tables', `${table.id}.json`), `${JSON.stringify(table, null, 1)}\n`);
}

export function writeTurnRecords(dir: string, pipeline: string, seed: number, records: readonly object[]): void {
  writeFileAtomic(join(dir, 'turns', `${pipeline}.seed${seed}.jsonl`), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

export function writeEvents(dir: string, pipeline: string, seed: number, events: readonly Record<string, unknown>[]): void {
  if (events.length === 0) return;
  writeFileAtomic(join(dir, 'events', `${pipeline}.seed${seed}.jsonl`), events.map((e) => JSON.stringify(e)).join('\n') + '\n');
}

export function writeManifest(dir: string, manifest: RunManifest): void {
  writeFileAtomic(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
}


export const TIMINGS_FILE = 'timings.json';

export function writeTimings(dir: string, timings: TimingReport): void {
  writeFileAtomic(join(dir, TIMINGS_FILE), `${JSON.stringify(timings, null, 2)}\n`);
}
