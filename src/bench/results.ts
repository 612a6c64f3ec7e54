import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Table } from '../report/table.ts';
import { writeFileAtomic } from '../util/files.ts';
import { InputError } from '../util/input-error.ts';
import type { TurnRecord } from './run-pipeline.ts';

/**
 * The results directory is the only thing reports read:
 *   run.json                       what ran (catalog, tokenizer, encoder, index, seeds, timings)
 *   tables/<id>.json               every table, as data (rows + column kinds)
 *   turns/<pipeline>.seed<n>.jsonl one measured record per turn
 *   events/<pipeline>.seed<n>.jsonl structured events (routing decisions...)
 */
export function writeTableResult(dir: string, table: Table): void {
  writeFileAtomic(join(dir, 'tables', `${table.id}.json`), `${JSON.stringify(table, null, 1)}\n`);
}

export function writeTurnRecords(dir: string, pipeline: string, seed: number, records: readonly TurnRecord[]): void {
  writeFileAtomic(join(dir, 'turns', `${pipeline}.seed${seed}.jsonl`), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

export function writeEvents(dir: string, pipeline: string, seed: number, events: readonly Record<string, unknown>[]): void {
  if (events.length === 0) return;
  writeFileAtomic(join(dir, 'events', `${pipeline}.seed${seed}.jsonl`), events.map((e) => JSON.stringify(e)).join('\n') + '\n');
}

export function writeRunInfo(dir: string, info: Record<string, unknown>): void {
  writeFileAtomic(join(dir, 'run.json'), `${JSON.stringify(info, null, 2)}\n`);
}

/** Tables of a results directory, in the order listed in run.json (then any others by name). */
export function readTables(dir: string): Table[] {
  const tablesDir = join(dir, 'tables');
  if (!existsSync(tablesDir)) throw new InputError(dir, 'tables/', 'a results directory written by `npm run bench`', 'no tables/ folder');
  const order = readRunInfo(dir).tableOrder as string[] | undefined;
  const files = readdirSync(tablesDir).filter((f) => f.endsWith('.json'));
  const rank = (f: string) => {
    const i = order?.indexOf(f.replace(/\.json$/, '')) ?? -1;
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  files.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return files.map((f) => {
    const path = join(tablesDir, f);
    try {
      return JSON.parse(readFileSync(path, 'utf8')) as Table;
    } catch (err) {
      throw new InputError(path, '$', 'a table JSON written by the bench', (err as Error).message);
    }
  });
}

export function readRunInfo(dir: string): Record<string, unknown> {
  const path = join(dir, 'run.json');
  if (!existsSync(path)) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new InputError(path, '$', 'run information JSON', (err as Error).message);
  }
}
