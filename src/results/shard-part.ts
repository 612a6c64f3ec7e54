import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { writeFileAtomic } from '../util/files.ts';
import { InputError } from '../util/input-error.ts';
import { LOCK_FILE } from './lock.ts';
import { MANIFEST_FILE, type RunFile } from './manifest.ts';
import { TIMINGS_FILE } from './write.ts';
import { isUnitRecord } from './unit-store.ts';
import { readJsonFile, readJsonFileIfValid, type JsonFileFormat } from '../util/json-file.ts';

/**
 * A shard's results folder (`bench --shard i/n`): the files its units wrote (turn records,
 * events, calibrations, study work files), each unit's record (./unit-store.ts, as any run
 * writes them), and `shard.json`, which says which run the part belongs to and lists every file
 * with its hash. It has no run.json: `report` refuses a part, `merge` joins the parts into a run.
 */
const PART_FILE = 'shard.json';
const PART_FORMAT = 'tooltax-shard/1';

/** Which part of a run one process takes (`--shard i/n`, parsed by src/commands/shard-spec.ts). */
export interface ShardSpec {
  /** 1-based. */
  index: number;
  count: number;
}

/** What must be equal in every part of one run. */
export interface RunIdentity {
  /** The bench options that decide the results (seeds, tokenizer, pipelines, catalog and task paths...), as given. */
  settings: Record<string, unknown>;
  /** SHA-256 of the run's inputs: catalog, every seed's tasks, calibration and history tasks. */
  inputs: string;
  /** SHA-256 of the harness's code (src/, package.json, package-lock.json). */
  code: string;
  /** V8's version: unit results are in its serialisation format. */
  v8: string;
  /** Every shard's units (unit keys), shard 1 first. */
  plan: string[][];
}

export interface ShardPart {
  format: typeof PART_FORMAT;
  /** A part of a live run (`live --shard i/n`: its journal is what `merge` reads); absent for a bench's part. */
  kind?: 'live';
  shard: ShardSpec;
  run: RunIdentity;
  /** This shard's units (unit keys). */
  units: string[];
  /** Every file of the part (the results files and the unit results), with its SHA-256. */
  files: RunFile[];
}

const strings = { type: 'array', items: { type: 'string' } } as const;

/** shard.json as read: its version (`format`) first, then every field. */
export const PART_JSON: JsonFileFormat<ShardPart> = {
  what: 'the shard manifest JSON',
  version: { field: 'format', value: PART_FORMAT },
  schema: {
    type: 'object',
    required: ['format', 'shard', 'run', 'units', 'files'],
    properties: {
      format: { type: 'string', const: PART_FORMAT },
      kind: { type: 'string', enum: ['live'], nullable: true },
      shard: {
        type: 'object',
        required: ['index', 'count'],
        properties: { index: { type: 'integer', minimum: 1 }, count: { type: 'integer', minimum: 1 } },
      },
      run: {
        type: 'object',
        required: ['settings', 'inputs', 'code', 'v8', 'plan'],
        properties: {
          settings: { type: 'object', required: [] },
          inputs: { type: 'string' },
          code: { type: 'string' },
          v8: { type: 'string' },
          plan: { type: 'array', items: strings },
        },
      },
      units: strings,
      files: {
        type: 'array',
        items: {
          type: 'object',
          required: ['path', 'sha256'],
          properties: { path: { type: 'string' }, sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
        },
      },
    },
  },
};

/** A part read from a folder, with where it is. */
export interface ReadPart extends ShardPart {
  dir: string;
}

/** Every file of a folder (not its lock, timings, run.json or shard.json) by path, with what changes when it is written. */
export type FolderSnapshot = ReadonlyMap<string, string>;

export function snapshotFolder(dir: string): FolderSnapshot {
  const skip = new Set([PART_FILE, LOCK_FILE, TIMINGS_FILE, MANIFEST_FILE]);
  const out = new Map<string, string>();
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const path = relative(dir, join(e.parentPath, e.name)).split(sep).join('/');
    if (skip.has(path)) continue;
    const st = lstatSync(join(dir, path));
    out.set(path, `${st.ino}:${st.size}:${st.mtimeMs}`);
  }
  return out;
}

/**
 * Writes shard.json last, listing the files the shard wrote (new or rewritten since `before`,
 * taken when it started: nothing else in the folder) and those `also` keeps (a unit's record it
 * restored rather than rewrote), so a killed shard leaves no part.
 */
export function writePart(
  dir: string,
  part: Omit<ShardPart, 'format' | 'files'>,
  before: FolderSnapshot,
  also: (path: string) => boolean = () => false,
): void {
  const files = [...snapshotFolder(dir)]
    .filter(([path, identity]) => before.get(path) !== identity || also(path))
    .map(([path]) => path)
    .sort()
    .map((path) => ({ path, sha256: sha256(join(dir, ...path.split('/'))) }));
  writeFileAtomic(join(dir, PART_FILE), `${JSON.stringify({ format: PART_FORMAT, ...part, files } satisfies ShardPart, null, 1)}\n`);
}

/** Reads and checks one part folder (format, file list and hashes); one-line InputError otherwise. */
export function readPart(dir: string): ReadPart {
  const path = join(dir, PART_FILE);
  if (!existsSync(path))
    throw new InputError(
      path,
      '',
      'a shard folder written by `bench --shard i/n` or `live --shard i/n`',
      'no shard.json (not a shard, or it did not finish)',
    );
  const part = readJsonFile(path, PART_JSON);
  for (const f of part.files) {
    const full = join(dir, ...f.path.split('/'));
    if (!isSafeRelative(f.path) || !existsSync(full) || !lstatSync(full).isFile())
      throw new InputError(full, '', 'a file listed in shard.json', 'nothing (the part is incomplete)');
    if (sha256(full) !== f.sha256) throw new InputError(full, '', 'the file shard.json lists', 'a changed file');
  }
  return { ...part, dir };
}

/**
 * Checks that the parts make exactly one run: the same identity, every shard once, the units
 * the plan gives each. Throws a one-line InputError naming the first part that does not fit.
 */
export function checkParts(parts: readonly ReadPart[]): void {
  if (parts.length === 0) throw new InputError('merge', '', 'one or more shard folders', 'none');
  const first = parts[0]!;
  const fields = ['code', 'inputs', 'settings', 'v8', 'plan'] as const;
  const what: Record<(typeof fields)[number], string> = {
    code: 'the same code',
    inputs: 'the same catalog and tasks',
    settings: 'the same options',
    v8: 'the same Node.js (V8) version',
    plan: 'the same shard plan',
  };
  const seen = new Map<number, string>();
  for (const part of parts) {
    const file = join(part.dir, PART_FILE);
    if (part.kind !== first.kind)
      throw new InputError(file, '$.kind', `a part of a ${runKind(first)}, as ${first.dir}`, `a part of a ${runKind(part)}`);
    if (part.shard.count !== first.shard.count)
      throw new InputError(file, '$.shard.count', `${first.shard.count} shards, as ${first.dir}`, String(part.shard.count));
    for (const f of fields)
      if (JSON.stringify(part.run[f]) !== JSON.stringify(first.run[f]))
        throw new InputError(file, `$.run.${f}`, `${what[f]} as ${first.dir}`, 'a different one (a part of another run)');
    const twin = seen.get(part.shard.index);
    if (twin)
      throw new InputError(file, '$.shard.index', `each shard once`, `shard ${part.shard.index}/${part.shard.count} again (also ${twin})`);
    seen.set(part.shard.index, part.dir);
    if (JSON.stringify(part.units) !== JSON.stringify(first.run.plan[part.shard.index - 1]))
      throw new InputError(file, '$.units', 'the units the plan gives this shard', 'others');
  }
  const missing = first.run.plan.flatMap((_, i) => (seen.has(i + 1) ? [] : [`${i + 1}/${first.shard.count}`]));
  if (missing.length)
    throw new InputError('merge', '', `every shard of the run (${first.shard.count})`, `shard ${missing.join(', ')} missing`);
}

function runKind(part: ShardPart): string {
  return part.kind === 'live' ? 'live run' : 'bench';
}

/** Checks that this checkout, with the parts' options, would make the run the parts belong to (one-line InputError otherwise). */
export function checkMergeMatches(part: ReadPart, here: RunIdentity): void {
  const file = join(part.dir, PART_FILE);
  if (part.run.code !== here.code)
    throw new InputError(
      file,
      '$.run.code',
      "this checkout's code (src/, package.json, package-lock.json)",
      'other code: merge where the shards ran, at the same commit',
    );
  if (part.run.v8 !== here.v8) throw new InputError(file, '$.run.v8', `Node.js with V8 ${here.v8}, as here`, `V8 ${part.run.v8}`);
  if (part.run.inputs !== here.inputs)
    throw new InputError(
      file,
      '$.run.inputs',
      'the catalog and tasks as they are here',
      'other inputs (a catalog or task file changed since the shards ran)',
    );
  if (JSON.stringify(part.run.plan) !== JSON.stringify(here.plan))
    throw new InputError(file, '$.run.plan', 'the shard plan of this checkout', 'another plan');
}

/**
 * Before a live run writes into a folder: it is no longer a finished part (a shard killed now
 * leaves none), but the files the part lists stay: they are the live run's own, and its
 * journal is what the run resumes from.
 */
export function forgetPart(dir: string): void {
  rmSync(join(dir, PART_FILE), { force: true });
}

/**
 * Before a run writes into a folder: a part that was there is gone (its files would be listed
 * in the new part, or mix with a run), but for its unit records, which the run may restore.
 */
export function clearPart(dir: string): void {
  const path = join(dir, PART_FILE);
  // No part here (or not one of ours): nothing of it to remove.
  const listed = readJsonFileIfValid(path, PART_JSON)?.files.map((f) => f.path) ?? [];
  rmSync(path, { force: true });
  // Only what the old part listed: anything else in the folder is someone else's.
  for (const file of listed) if (isSafeRelative(file) && !isUnitRecord(file)) rmSync(join(dir, ...file.split('/')), { force: true });
}

function isSafeRelative(path: string): boolean {
  return (
    typeof path === 'string' && path.split('/').every((p) => p !== '' && p !== '.' && p !== '..' && !p.includes('\\') && !p.includes(':'))
  );
}

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}
