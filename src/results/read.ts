import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Table } from '../table/table.ts';
import { InputError, jsonParseReason } from '../util/input-error.ts';
import { checkedManifest, checkedTable } from './format.ts';
import { MANIFEST_FILE, type RunManifest } from './manifest.ts';

/**
 * What reports read of a results directory (written by ./write.ts): the tables and the
 * manifest, each checked against its format (./format.ts) as it is read.
 */

/**
 * Tables of a results directory, in the order listed in run.json (then any others by name). With
 * a manifest that lists the run's files, only the tables it lists: anything else in tables/ (a
 * user's own file, a live run's tables, a run that did not finish) is not this run's.
 */
export function readTables(dir: string): Table[] {
  const tablesDir = join(dir, 'tables');
  if (!existsSync(tablesDir)) throw new InputError(dir, 'tables/', 'a results directory written by `npm run bench`', 'no tables/ folder');
  const manifest = readManifest(dir);
  const order = manifest?.tableOrder;
  const listed = Array.isArray(manifest?.files) ? new Set(manifest.files.map((f) => f.path)) : undefined;
  const files = readdirSync(tablesDir).filter((f) => f.endsWith('.json') && (!listed || listed.has(`tables/${f}`)));
  const rank = (f: string) => {
    const i = order?.indexOf(f.replace(/\.json$/, '')) ?? -1;
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  files.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return files.map((f) => {
    const path = join(tablesDir, f);
    return checkedTable(parseJson(path, 'a table JSON written by the bench'), path);
  });
}

/** The run manifest, or undefined for a results directory that has none. */
export function readManifest(dir: string): RunManifest | undefined {
  const path = join(dir, MANIFEST_FILE);
  if (!existsSync(path)) return undefined;
  return checkedManifest(parseJson(path, 'the run manifest JSON written by the bench'), path);
}

function parseJson(path: string, what: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new InputError(path, '$', what, jsonParseReason(err));
  }
}
