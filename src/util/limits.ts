import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { InputError } from './input-error.ts';

/**
 * Bounds on what an untrusted input may cost. Every check fails with a one-line InputError
 * naming the file, the JSON path and the limit (and the flag that raises it), so an oversized
 * catalog or task file is refused in milliseconds instead of running for minutes.
 */
export interface InputLimits {
  /** Bytes of one input file (catalog dump, meta file, task file). */
  maxFileBytes: number;
  /** Characters of one tool description/title or one task message. */
  maxTextChars: number;
  /** Nesting depth of one tool's inputSchema/outputSchema (objects and arrays). */
  maxSchemaDepth: number;
  /** Tools in one catalog (all dumps together). */
  maxTools: number;
  /** Turns of one task. */
  maxTurns: number;
}

/** Far above every real catalog and task file seen (largest real description 1,854 characters, deepest schema 9). */
export const DEFAULT_LIMITS: InputLimits = {
  maxFileBytes: 32 * 1024 * 1024,
  maxTextChars: 32 * 1024,
  maxSchemaDepth: 64,
  maxTools: 10_000,
  maxTurns: 1_000,
};

/** The command-line flag that sets each limit (named in errors, defined in cli.ts). */
export const LIMIT_FLAGS: Record<keyof InputLimits, string> = {
  maxFileBytes: '--max-file-bytes',
  maxTextChars: '--max-text-chars',
  maxSchemaDepth: '--max-schema-depth',
  maxTools: '--max-tools',
  maxTurns: '--max-turns',
};

export function limitExceeded(file: string, path: string, limit: keyof InputLimits, limits: InputLimits, found: string): InputError {
  return new InputError(file, path, `at most ${limits[limit].toLocaleString('en-US')} (${LIMIT_FLAGS[limit]})`, found);
}

/**
 * Reads a UTF-8 input file, refusing anything that is not a regular file (a directory named
 * x.json, a FIFO, /dev/zero) and anything over the size limit. The file is opened
 * non-blocking and checked with fstat on the open descriptor, so a FIFO never blocks and the
 * checked file is the one read.
 */
export function readInputFile(file: string, limits: InputLimits = DEFAULT_LIMITS): string {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw new InputError(file, '', 'a readable file', fsReason(err));
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new InputError(file, '', 'a regular file', st.isDirectory() ? 'a directory' : 'a device, FIFO or socket');
    if (st.size > limits.maxFileBytes) throw limitExceeded(file, '', 'maxFileBytes', limits, `${st.size.toLocaleString('en-US')} bytes`);
    // Read at most one byte past the limit: a file that grows while we read is still bounded.
    const buf = Buffer.alloc(Math.min(st.size, limits.maxFileBytes) + 1);
    let n = 0;
    for (let got = -1; got !== 0 && n < buf.length; n += got) got = readSync(fd, buf, n, buf.length - n, n);
    if (n > limits.maxFileBytes) throw limitExceeded(file, '', 'maxFileBytes', limits, 'a file that grew while read');
    return buf.subarray(0, n).toString('utf8');
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(file, '', 'a readable file', fsReason(err));
  } finally {
    closeSync(fd);
  }
}

/** `EACCES: permission denied` from a Node fs error, without the stack. */
export function fsReason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'ENOENT') return 'nothing at that path';
  if (e.code === 'EACCES' || e.code === 'EPERM') return `no permission to read it (${e.code})`;
  if (e.code === 'EISDIR') return 'a directory';
  return e.code ? `${e.code}` : String(e.message ?? e);
}

/** Depth of nested objects/arrays, stopping (and returning more than `max`) as soon as `max` is passed. */
export function jsonDepthOver(value: unknown, max: number): number {
  // Iterative, so a schema nested 100,000 deep cannot overflow the stack.
  const stack: [unknown, number][] = [[value, 0]];
  let deepest = 0;
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    const depth = d + 1;
    if (depth > deepest) deepest = depth;
    if (deepest > max) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth]);
  }
  return deepest;
}
