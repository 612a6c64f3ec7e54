import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readdirSync, readSync, rmSync } from 'node:fs';
import { endianness } from 'node:os';
import { join, resolve } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { writeFileAtomic } from './files.ts';
import { forgetProcessSharedBytes, sharedBytes } from './process-shared.ts';

/*
 * On-disk stores of vectors keyed by the sha256 of a text (the embedding cache, the learned
 * retriever's score cache): one directory per store, holding immutable segment files. Each batch
 * of new vectors becomes a new segment written atomically (temp file + rename), so concurrent
 * processes and worker threads never see half a file and never overwrite each other's vectors.
 * Loading reads every segment once; when there are many, they are merged into one.
 *
 * Segment layout (little-endian): 8-byte magic (names the element type) | u32 dim | u32 count |
 * count × (32-byte sha256 of the UTF-8 text | dim × element).
 *
 * A segment is read into a SharedArrayBuffer and its vectors are views of it: the file never
 * changes once written, so its bytes are shared by file path with the worker threads
 * (./process-shared.ts) instead of each thread holding a copy of every vector.
 */

/** An element type of a store: float32 (embeddings) or float64 (scores, kept exact). */
export interface ElementType<T extends Float32Array | Float64Array> {
  magic: string;
  bytes: 4 | 8;
  make(n: number): T;
  /** `n` elements of `buffer` from byte `offset` (aligned), without a copy. */
  view(buffer: ArrayBufferLike, offset: number, n: number): T;
}
export const FLOAT32: ElementType<Float32Array> = {
  magic: 'TTXEMB01',
  bytes: 4,
  make: (n) => new Float32Array(n),
  view: (buffer, offset, n) => new Float32Array(buffer, offset, n),
};
export const FLOAT64: ElementType<Float64Array> = {
  magic: 'TTXSCR01',
  bytes: 8,
  make: (n) => new Float64Array(n),
  view: (buffer, offset, n) => new Float64Array(buffer, offset, n),
};

const HEADER = 16;
const SEGMENT_EXT = '.seg';
const COMPACT_OVER = 16;
let segmentCounter = 0;

export function textKey(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function encodeSegment<T extends Float32Array | Float64Array>(
  el: ElementType<T>,
  dim: number,
  entries: readonly (readonly [string, T])[],
): Buffer {
  const rec = 32 + el.bytes * dim;
  // In shared memory, so that writeSegment can hand the same bytes to worker threads.
  const buf = Buffer.from(new SharedArrayBuffer(HEADER + entries.length * rec));
  buf.write(el.magic, 0, 8, 'latin1');
  buf.writeUInt32LE(dim, 8);
  buf.writeUInt32LE(entries.length, 12);
  let off = HEADER;
  for (const [key, v] of entries) {
    buf.write(key, off, 32, 'hex');
    off += 32;
    for (let j = 0; j < dim; j++, off += el.bytes) {
      if (el.bytes === 4) buf.writeFloatLE(v[j]!, off);
      else buf.writeDoubleLE(v[j]!, off);
    }
  }
  return buf;
}

/**
 * Parse a segment; undefined when it is not a complete segment of this element type and dimension.
 * The vectors are views of `buf` (copies only when its elements are misaligned or the machine is big-endian).
 */
export function decodeSegment<T extends Float32Array | Float64Array>(
  el: ElementType<T>,
  buf: Buffer,
  dim: number,
): Map<string, T> | undefined {
  if (buf.length < HEADER || buf.toString('latin1', 0, 8) !== el.magic) return undefined;
  if (buf.readUInt32LE(8) !== dim) return undefined;
  const count = buf.readUInt32LE(12);
  const rec = 32 + el.bytes * dim;
  if (buf.length !== HEADER + count * rec) return undefined;
  const out = new Map<string, T>();
  let off = HEADER;
  // Views need the elements aligned in the buffer (every record is, when the buffer is) and the file's byte order.
  const views = LITTLE_ENDIAN && (buf.byteOffset + HEADER + 32) % el.bytes === 0;
  for (let i = 0; i < count; i++) {
    const key = buf.toString('hex', off, off + 32);
    off += 32;
    if (views) {
      out.set(key, el.view(buf.buffer, buf.byteOffset + off, dim));
      off += el.bytes * dim;
      continue;
    }
    const v = el.make(dim);
    for (let j = 0; j < dim; j++, off += el.bytes) v[j] = el.bytes === 4 ? buf.readFloatLE(off) : buf.readDoubleLE(off);
    out.set(key, v);
  }
  return out;
}

const LITTLE_ENDIAN = endianness() === 'LE';

function segmentKey(path: string): string {
  return `segment:${resolve(path)}`;
}

/** A segment file's bytes, in shared memory: read once per process (../util/process-shared.ts), by absolute path. */
function readSegmentFile(path: string): Buffer {
  const key = resolve(path);
  const bytes = sharedBytes(segmentKey(path), () => {
    const fd = openSync(key, 'r');
    try {
      const size = fstatSync(fd).size;
      const read = new SharedArrayBuffer(size);
      const view = new Uint8Array(read);
      for (let at = 0; at < size;) {
        const n = readSync(fd, view, at, size - at, at);
        if (n === 0) throw new Error(`${key}: file shrank while being read`);
        at += n;
      }
      return read;
    } finally {
      closeSync(fd);
    }
  });
  return Buffer.from(bytes);
}

/**
 * Writes a new segment and returns its vectors as views of the bytes written, which are kept
 * in shared memory under the file's path as if read from it: a worker thread started later
 * (the bench's lanes, after a cold run's embedding pass) uses them instead of reading its own
 * copy, and the writer keeps one copy of each vector, not the caller's arrays beside the file's.
 */
export function writeSegment<T extends Float32Array | Float64Array>(
  el: ElementType<T>,
  dir: string,
  dim: number,
  entries: readonly (readonly [string, T])[],
): Map<string, T> {
  const name = `${Date.now().toString(36)}-${process.pid}-${(segmentCounter++).toString(36)}${SEGMENT_EXT}`;
  const path = join(dir, name);
  const buf = encodeSegment(el, dim, entries);
  writeFileAtomic(path, buf);
  const bytes = sharedBytes(segmentKey(path), () => buf.buffer as SharedArrayBuffer);
  return decodeSegment(el, Buffer.from(bytes), dim)!;
}

/** Every vector of a store directory (none when it does not exist), merging many segments into one. */
export function loadSegments<T extends Float32Array | Float64Array>(
  el: ElementType<T>,
  dir: string,
  dim: number,
): { vectors: Map<string, T>; skippedFiles: number } {
  const vectors = new Map<string, T>();
  let skippedFiles = 0;
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith(SEGMENT_EXT))
      .sort();
  } catch {
    files = [];
  }
  const read: string[] = [];
  for (const file of files) {
    let buf: Buffer;
    try {
      buf = readSegmentFile(join(dir, file));
    } catch {
      continue; // Removed by another process compacting: its vectors are in the merged segment.
    }
    const seg = decodeSegment(el, buf, dim);
    if (!seg) {
      skippedFiles++;
      continue;
    }
    read.push(file);
    for (const [k, v] of seg) vectors.set(k, v);
  }
  // Many small segments (one per batch or per query) slow the next load: merge them, and keep
  // the merged bytes instead of the small ones. Only the main thread merges: a worker's small
  // segments are those the main thread holds and gave it, and a merged copy in the worker
  // would hold the same vectors twice in the process.
  if (read.length > COMPACT_OVER && isMainThread) {
    const merged = writeSegment(el, dir, dim, [...vectors]);
    for (const file of read) rmSync(join(dir, file), { force: true });
    forgetProcessSharedBytes(read.map((file) => segmentKey(join(dir, file))));
    return { vectors: merged, skippedFiles };
  }
  return { vectors, skippedFiles };
}
