import { InvalidArgumentError } from 'commander';
import { existsSync, mkdtempSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readClientConfig, specFromCommandLine, specFromUrl } from '../mcp/config.ts';
import { captureExitCode, captureToDir, DEFAULT_CAPTURE_DIR, type CaptureOutcome } from '../mcp/dump.ts';
import type { ServerSpec } from '../mcp/spec.ts';
import { acquireRunLock } from '../results/lock.ts';
import { terminalText } from '../report/escape.ts';
import type { InputLimits } from '../util/limits.ts';
import { limitsFromOptions } from './limit-options.ts';
import { userCwd } from './user-paths.ts';

/** The live-server options shared by `catalog` and `budget` (both take the input limits too: a config file is an input). */
export interface LiveOptions extends Partial<InputLimits> {
  fromServer?: string[];
  fromConfig?: string[];
  fromUrl?: string[];
  timeout: number;
}

export const collect = (value: string, previous: string[] = []) => [...previous, value];

export function parseTimeout(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number of seconds');
  return n;
}

export function hasLiveInput(o: LiveOptions): boolean {
  return Boolean(o.fromServer?.length || o.fromConfig?.length || o.fromUrl?.length);
}

/** Every spec the options name, in the order given; a config file that cannot be read throws an InputError. */
function liveSpecs(o: LiveOptions): ServerSpec[] {
  return [
    ...(o.fromConfig ?? []).flatMap((file) => readClientConfig(file, process.env, limitsFromOptions(o))),
    // A relative path in the command line is the user's, like every other path (user-paths.ts).
    ...(o.fromServer ?? []).map((line, i) => specFromCommandLine(line, i, userCwd())),
    ...(o.fromUrl ?? []).map((url, i) => specFromUrl(url, i)),
  ];
}

const stderr = (line: string) => console.error(terminalText(line));

function rmdirIfEmpty(dir: string): void {
  if (existsSync(dir) && readdirSync(dir).length === 0) rmdirSync(dir);
}

/** `catalog --from-*`: capture into `out` (default catalogs/captured/). */
export async function captureCommand(
  o: LiveOptions & { out?: string; force: boolean },
  root: string,
): Promise<CaptureOutcome & { exitCode: 0 | 1 | 2 }> {
  const specs = liveSpecs(o);
  const out = o.out ?? join(root, DEFAULT_CAPTURE_DIR);
  // The same lock as every command that writes into a folder: a bench or live run writing there refuses the capture.
  const created = !existsSync(out);
  const lock = acquireRunLock(out, 'catalog --from-*');
  try {
    const outcome = await captureToDir(specs, out, { timeoutMs: o.timeout * 1000, force: o.force, log: stderr, warn: stderr });
    return { ...outcome, exitCode: captureExitCode(outcome) };
  } finally {
    lock.release();
    // A folder made only to hold the lock goes again when nothing was captured into it.
    if (created) rmdirIfEmpty(out);
  }
}

/**
 * Captures into a temporary folder for a one-off measurement (`budget --from-*`), calls `use`
 * with the dump files, and removes the folder. A server that fails makes the whole result
 * unusable for a gate (the total would be too small), so the caller gets the failures.
 */
export async function withLiveDumps<T>(o: LiveOptions, use: (files: string[], failures: string[]) => Promise<T> | T): Promise<T> {
  const specs = liveSpecs(o);
  const dir = mkdtempSync(join(tmpdir(), 'tooltax-live-'));
  try {
    const outcome = await captureToDir(specs, dir, { timeoutMs: o.timeout * 1000, force: false, log: stderr, warn: stderr });
    return await use(
      outcome.written.map((w) => w.file),
      outcome.failures,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
