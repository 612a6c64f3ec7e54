import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readFileSync, readSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { gunzipSync, gzipSync } from 'node:zlib';
import { writeFileAtomic } from '../util/files.ts';

/**
 * A results folder's unit records (`units/<kind>.<id>.v8.gz`): a line with the format and the
 * unit's fingerprint (the hash of everything its result depends on:
 * src/bench/plan/fingerprint.ts), then, gzip-compressed in V8's structured-clone format, its
 * result as the lanes pass it and the files it wrote into the folder. A run whose unit has the
 * same fingerprint restores the record instead of running the unit; a killed run's finished
 * units are there for the next one. The first line alone says whether a record fits.
 */
const UNITS_DIR = 'units';
const FORMAT = 'tooltax-unit/2';
/** The header line: the format, a space, the fingerprint (64 hex digits), a newline. */
const HEADER_BYTES = FORMAT.length + 1 + 64 + 1;

/** A unit of a run (a bench's pipeline or study): its kind and id. */
export interface StoredUnitKey {
  kind: string;
  id: string;
}

interface UnitRecord {
  result: unknown;
  /** The files the unit wrote, relative to the results folder (`/`-separated), with their bytes. */
  files: { path: string; bytes: Uint8Array }[];
}

/** A unit's record, relative to the results folder. */
export function unitRecordFile(unit: StoredUnitKey): string {
  return `${UNITS_DIR}/${unit.kind}.${encodeURIComponent(unit.id)}.v8.gz`;
}

function recordPath(dir: string, unit: StoredUnitKey): string {
  return join(dir, ...unitRecordFile(unit).split('/'));
}

/**
 * Writes one unit's record into `resultsDir`: its result and those of `written` (absolute
 * paths) that are inside the folder. Written last, atomically: a unit killed before has none.
 */
export function saveUnit(resultsDir: string, unit: StoredUnitKey, fingerprint: string, result: unknown, written: readonly string[]): void {
  const files = written
    .map((abs) => ({ abs, path: insidePath(resultsDir, abs) }))
    .filter((f): f is { abs: string; path: string } => f.path !== undefined && existsSync(f.abs))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((f) => ({ path: f.path, bytes: readFileSync(f.abs) }));
  const record: UnitRecord = { result, files };
  if (!/^[0-9a-f]{64}$/.test(fingerprint))
    throw new Error(`unit record: expected a SHA-256 fingerprint, got ${JSON.stringify(fingerprint)}`);
  // Level 1: turn records compress ~10× even so, at a fraction of the default level's time.
  writeFileAtomic(recordPath(resultsDir, unit), [Buffer.from(`${FORMAT} ${fingerprint}\n`), gzipSync(serialize(record), { level: 1 })]);
}

/**
 * The result of `unit` recorded in `resultsDir` with this fingerprint, its files written back
 * into the folder; undefined when there is none, it has another fingerprint, or it cannot be
 * read (a record is a cache: anything wrong with it means running the unit).
 */
export function restoreUnit(resultsDir: string, unit: StoredUnitKey, fingerprint: string): unknown {
  const record = readRecord(recordPath(resultsDir, unit), fingerprint);
  if (!record) return undefined;
  for (const f of record.files) {
    const path = insidePath(resultsDir, join(resultsDir, ...f.path.split('/')));
    if (path !== f.path) return undefined;
  }
  for (const f of record.files) writeFileAtomic(join(resultsDir, ...f.path.split('/')), f.bytes);
  return record.result;
}

/** Whether `unit`'s record in `resultsDir` has this fingerprint (its first line alone is read). */
export function hasUnit(resultsDir: string, unit: StoredUnitKey, fingerprint: string): boolean {
  const path = recordPath(resultsDir, unit);
  if (!existsSync(path)) return false;
  const head = Buffer.alloc(HEADER_BYTES);
  const fd = openSync(path, 'r');
  try {
    return readSync(fd, head, 0, HEADER_BYTES, 0) === HEADER_BYTES && head.toString('latin1') === `${FORMAT} ${fingerprint}\n`;
  } finally {
    closeSync(fd);
  }
}

function readRecord(path: string, fingerprint: string): UnitRecord | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const bytes = readFileSync(path);
    if (bytes.subarray(0, HEADER_BYTES).toString('latin1') !== `${FORMAT} ${fingerprint}\n`) return undefined;
    const record = deserialize(gunzipSync(bytes.subarray(HEADER_BYTES))) as Partial<UnitRecord>;
    return Array.isArray(record.files) ? (record as UnitRecord) : undefined;
  } catch {
    return undefined;
  }
}

/** Copies the unit records a shard's part lists (checked against their hashes when it was read) into `to`'s, where a run looks them up. */
export function copyUnitRecords(from: string, listed: readonly { path: string }[], to: string): void {
  for (const { path } of listed.filter((f) => isUnitRecord(f.path))) {
    mkdirSync(join(to, UNITS_DIR), { recursive: true });
    copyFileSync(join(from, ...path.split('/')), join(to, ...path.split('/')));
  }
}

/** Whether a folder's file (relative, `/`-separated) is a unit record. */
export function isUnitRecord(path: string): boolean {
  return /^units\/[^/]+\.v8\.gz$/.test(path);
}

/** `abs` relative to `dir` with `/` separators, when it is inside it (and not a unit record). */
function insidePath(dir: string, abs: string): string | undefined {
  const rel = relative(dir, abs);
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  const path = rel.split(sep).join('/');
  return path.startsWith(`${UNITS_DIR}/`) ? undefined : path;
}
