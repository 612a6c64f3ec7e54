import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  utimesSync,
} from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { gunzipSync, gzipSync } from 'node:zlib';
import { writeFileAtomic } from '../util/files.ts';
import { previousRunCopy } from './run-files.ts';

/**
 * A results folder's unit records (`units/<kind>.<id>.v8.gz`): a line with the format and the
 * unit's fingerprint (the hash of everything its result depends on:
 * src/bench/plan/fingerprint.ts), a line with the byte lengths of three gzip sections, then the
 * sections, each in V8's structured-clone format: the unit's result with the list of files it
 * wrote into the folder (path, size, modification time), its bulk (a pipeline's turn records,
 * read only when a study of them runs), and the files' bytes (read only when a file is missing
 * or changed). A run whose unit has the same fingerprint restores the record instead of running
 * the unit; a killed run's finished units are there for the next one. The first line alone says
 * whether a record fits.
 */
const UNITS_DIR = 'units';
const FORMAT = 'tooltax-unit/3';
/** The header line: the format, a space, the fingerprint (64 hex digits), a newline. */
const HEADER_BYTES = FORMAT.length + 1 + 64 + 1;
/** Longest line of section lengths read (three decimal lengths and their separators). */
const LENGTHS_LINE_MAX = 64;

/** A unit of a run (a bench's pipeline or study): its kind and id. */
export interface StoredUnitKey {
  kind: string;
  id: string;
}

/** A file the unit wrote, as it was when recorded: a file still so is not written again. */
interface RecordedFile {
  /** Relative to the results folder, `/`-separated. */
  path: string;
  size: number;
  mtimeMs: number;
}

interface UnitHead {
  result: unknown;
  files: RecordedFile[];
}

/** What a unit's record gives back: its result, and its bulk when asked for. */
export interface RestoredUnit {
  result: unknown;
  /** The bulk saved beside the result (saveUnit's `bulk`); undefined when not asked for. */
  bulk?: unknown;
  /** The unit's files in the folder, as recorded (relative, `/`-separated): the run's own, written or not. */
  files: string[];
}

/** A unit's record, relative to the results folder. */
export function unitRecordFile(unit: StoredUnitKey): string {
  return `${UNITS_DIR}/${unit.kind}.${encodeURIComponent(unit.id)}.v8.gz`;
}

function recordPath(dir: string, unit: StoredUnitKey): string {
  return join(dir, ...unitRecordFile(unit).split('/'));
}

/**
 * Writes one unit's record into `resultsDir`: its result, its bulk (kept apart so that a run
 * that does not need it does not read it), and those of `written` (absolute paths) that are
 * inside the folder. Written last, atomically: a unit killed before has none.
 */
export function saveUnit(
  resultsDir: string,
  unit: StoredUnitKey,
  fingerprint: string,
  saved: { result: unknown; bulk?: unknown },
  written: readonly string[],
): void {
  if (!/^[0-9a-f]{64}$/.test(fingerprint))
    throw new Error(`unit record: expected a SHA-256 fingerprint, got ${JSON.stringify(fingerprint)}`);
  const files = written
    .map((abs) => ({ abs, path: insidePath(resultsDir, abs) }))
    .filter((f): f is { abs: string; path: string } => f.path !== undefined && existsSync(f.abs))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const head: UnitHead = {
    result: saved.result,
    files: files.map((f) => {
      const st = statSync(f.abs);
      return { path: f.path, size: st.size, mtimeMs: st.mtimeMs };
    }),
  };
  // Level 1: turn records compress ~10× even so, at a fraction of the default level's time.
  const sections = [head, saved.bulk, files.map((f) => readFileSync(f.abs))].map((v) => gzipSync(serialize(v), { level: 1 }));
  writeFileAtomic(recordPath(resultsDir, unit), [
    Buffer.from(`${FORMAT} ${fingerprint}\n${sections.map((b) => b.length).join(' ')}\n`),
    ...sections,
  ]);
}

/**
 * The result of `unit` recorded in `resultsDir` with this fingerprint (and its bulk when
 * `withBulk`), its files written back into the folder where they are missing or changed;
 * undefined when there is none, it has another fingerprint, or it cannot be read (a record is a
 * cache: anything wrong with it means running the unit).
 */
export function restoreUnit(resultsDir: string, unit: StoredUnitKey, fingerprint: string, withBulk = false): RestoredUnit | undefined {
  const record = openRecord(recordPath(resultsDir, unit), fingerprint);
  if (!record) return undefined;
  try {
    const head = record.section(0) as Partial<UnitHead>;
    if (!Array.isArray(head.files)) return undefined;
    const targets = head.files.map((f) => ({ f, abs: join(resultsDir, ...f.path.split('/')) }));
    if (targets.some(({ f, abs }) => insidePath(resultsDir, abs) !== f.path)) return undefined;
    // A file as recorded is left (a killed run's) or taken back from the previous run's (run-files.ts).
    const stale = targets.filter(({ f, abs }) => !unchanged(abs, f) && !takenBack(resultsDir, f, abs));
    if (stale.length) {
      const bytes = record.section(2) as Uint8Array[];
      for (const { f, abs } of stale) {
        const i = head.files.indexOf(f);
        writeFileAtomic(abs, bytes[i]!);
        // The file is now as recorded: the next run finds it so and leaves it.
        utimesSync(abs, new Date(), new Date(f.mtimeMs));
      }
    }
    const files = head.files.map((f) => f.path);
    return withBulk ? { result: head.result, bulk: record.section(1), files } : { result: head.result, files };
  } catch {
    return undefined;
  }
}

function takenBack(resultsDir: string, f: RecordedFile, abs: string): boolean {
  const previous = previousRunCopy(resultsDir, f.path);
  if (!unchanged(previous, f)) return false;
  mkdirSync(dirname(abs), { recursive: true });
  renameSync(previous, abs);
  return true;
}

function unchanged(abs: string, f: RecordedFile): boolean {
  try {
    const st = statSync(abs);
    return st.isFile() && st.size === f.size && st.mtimeMs === f.mtimeMs;
  } catch {
    return false;
  }
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

/** A record whose header fits: its sections, each read and decoded when asked for. */
function openRecord(path: string, fingerprint: string): { section: (i: number) => unknown } | undefined {
  if (!existsSync(path)) return undefined;
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  if (bytes.subarray(0, HEADER_BYTES).toString('latin1') !== `${FORMAT} ${fingerprint}\n`) return undefined;
  const lineEnd = bytes.indexOf(0x0a, HEADER_BYTES);
  if (lineEnd < 0 || lineEnd - HEADER_BYTES > LENGTHS_LINE_MAX) return undefined;
  const lengths = bytes.subarray(HEADER_BYTES, lineEnd).toString('latin1').split(' ').map(Number);
  if (lengths.length !== 3 || lengths.some((n) => !Number.isSafeInteger(n) || n < 0)) return undefined;
  const starts = [lineEnd + 1, lineEnd + 1 + lengths[0]!, lineEnd + 1 + lengths[0]! + lengths[1]!];
  if (starts[2]! + lengths[2]! !== bytes.length) return undefined;
  return { section: (i) => deserialize(gunzipSync(bytes.subarray(starts[i]!, starts[i]! + lengths[i]!))) };
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
