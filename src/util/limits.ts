import { resolve } from 'node:path';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { InputError } from './input-error.ts';

/**
 * Bounds on what an untrusted input may cost. Every check fails with a one-line InputError
 * naming the file, the JSON path and the limit (and the flag that raises it), so an oversized
 * catalog, meta file, task file or client config is refused in milliseconds instead of running
 * for minutes (or overflowing the stack in JSON.stringify).
 */
export interface InputLimits {
  /** Bytes of one input file (catalog dump, meta file, task file, client config). */
  maxFileBytes: number;
  /** Characters of any one string of a JSON input, key or value: a description, a message, a summary, an unknown field. */
  maxTextChars: number;
  /** Nesting depth of objects and arrays in one JSON input (a file, or a line of a task file), counted from its root. */
  maxDepth: number;
  /** Tools in one catalog (all dumps together). */
  maxTools: number;
  /** Turns of one task. */
  maxTurns: number;
}

/** Far above every real catalog and task file seen (longest string 3,866 characters, deepest dump 13 from its root). */
export const DEFAULT_LIMITS: InputLimits = {
  maxFileBytes: 32 * 1024 * 1024,
  maxTextChars: 32 * 1024,
  maxDepth: 64,
  maxTools: 10_000,
  maxTurns: 1_000,
};

/** The command-line flag that sets each limit (named in errors, defined in cli.ts). */
export const LIMIT_FLAGS: Record<keyof InputLimits, string> = {
  maxFileBytes: '--max-file-bytes',
  maxTextChars: '--max-text-chars',
  maxDepth: '--max-depth',
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
    // A UTF-8 byte order mark (Windows editors, PowerShell's Out-File) is no part of the text.
    return buf
      .subarray(0, n)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(file, '', 'a readable file', fsReason(err));
  } finally {
    closeSync(fd);
  }
}

/** `EACCES: permission denied` from a Node fs error, without the stack; a missing file names the absolute path tried. */
export function fsReason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'ENOENT') return e.path ? `nothing at ${resolve(e.path)}` : 'nothing at that path';
  if (e.code === 'EACCES' || e.code === 'EPERM') return `no permission to read it (${e.code})`;
  if (e.code === 'EISDIR') return 'a directory';
  return e.code ? `${e.code}` : String(e.message ?? e);
}

/** Where a value sits in a JSON input: its parent's place and its key there (undefined: the root). */
type Place = { parent: Place; key: string | number } | undefined;

/**
 * The one size-and-depth guard of a parsed JSON input: a catalog dump, a meta file, a line of
 * a task file, a client config. Every string, key or value, at most maxTextChars; objects and
 * arrays nested at most maxDepth from `root`. One pass, iterative (a value nested 100,000 deep
 * cannot overflow the stack) and linear in the value's size; the error names the JSON path of
 * the first value over a limit, in document order. Once it passes, JSON.stringify and every
 * walk of the value are safe.
 */
export function checkJsonLimits(file: string, root: string, value: unknown, limits: InputLimits): void {
  const stack: [unknown, number, Place][] = [[value, 0, undefined]];
  const tooLong = (text: string, at: Place, suffix = '') =>
    limitExceeded(file, `${jsonPath(root, at)}${suffix}`, 'maxTextChars', limits, `${text.length.toLocaleString('en-US')} characters`);
  while (stack.length) {
    const [v, d, at] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.length > limits.maxTextChars) throw tooLong(v, at);
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (d + 1 > limits.maxDepth) throw limitExceeded(file, jsonPath(root, at), 'maxDepth', limits, 'deeper nesting');
    // Pushed last to first, so the first offending value in the text is the one reported.
    if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], d + 1, { parent: at, key: i }]);
    else {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, x] = entries[i]!;
        if (k.length > limits.maxTextChars) throw tooLong(k, { parent: at, key: k }, ' (the key)');
        stack.push([x, d + 1, { parent: at, key: k }]);
      }
    }
  }
}

/** Segments of a path kept around the elision of a deep one, so a one-line error stays short. */
const PATH_HEAD = 7;
const PATH_TAIL = 2;
/** Longest key printed whole in a path. */
const PATH_KEY_CHARS = 20;

/** `$.tools[0].inputSchema…`, with the middle of a deep path elided and long keys cut. */
function jsonPath(root: string, at: Place): string {
  const segments: string[] = [];
  for (let p = at; p; p = p.parent) {
    const k = p.key;
    if (typeof k === 'number') segments.push(`[${k}]`);
    else if (k.length <= PATH_KEY_CHARS && /^[A-Za-z_$][\w$]*$/.test(k)) segments.push(`.${k}`);
    else segments.push(`[${JSON.stringify(k.length > PATH_KEY_CHARS ? `${k.slice(0, PATH_KEY_CHARS)}…` : k)}]`);
  }
  segments.reverse();
  const shown = segments.length > PATH_HEAD + PATH_TAIL ? [...segments.slice(0, PATH_HEAD), '…', ...segments.slice(-PATH_TAIL)] : segments;
  return `${root}${shown.join('')}`;
}
