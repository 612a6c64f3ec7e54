import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { toStableJson, writeFileAtomic } from '../util/files.ts';
import type { Encoder } from './types.ts';

/** An encoder that can say which weights/fit produced its vectors (part of the cache key). */
export type FingerprintedEncoder = Encoder & { readonly fingerprint?: string };

/** Environment variable naming the embedding cache root (default `.cache/embeddings` under the working directory). */
export const CACHE_DIR_ENV = 'TOOLTAX_CACHE_DIR';

/** The embedding cache root: $TOOLTAX_CACHE_DIR, else `fallback` (default `.cache/embeddings`). */
export function embeddingCacheDir(fallback = join('.cache', 'embeddings'), env: NodeJS.ProcessEnv = process.env): string {
  return env[CACHE_DIR_ENV] || fallback;
}

export interface DiskCacheOptions {
  /** Root directory; default $TOOLTAX_CACHE_DIR, else `.cache/embeddings` under the working directory (gitignored). */
  dir?: string;
  /** Uncached texts sent to the encoder per call (each batch is persisted as it completes). */
  batchSize?: number;
}

export interface CacheStats {
  /** Requested texts served from the cache. */
  hits: number;
  /** Distinct texts that had to be encoded. */
  misses: number;
  /** Calls made to the wrapped encoder's embed(). */
  encoderCalls: number;
  /** Vectors in the cache for this encoder (memory view). */
  entries: number;
  /** Segment files skipped as unreadable when loading (truncated, foreign or wrong dimension). */
  skippedFiles: number;
}

/*
 * Storage: one directory per (encoder name, fingerprint), holding immutable segment files.
 * Each batch of new vectors becomes a new segment written atomically (temp file + rename), so
 * concurrent processes (vitest forks, parallel bench workers) never see half a file and never
 * overwrite each other's vectors. Loading reads every segment once per process; when there
 * are many, they are merged into one.
 *
 * Segment layout (little-endian): magic "TTXEMB01" | u32 dim | u32 count |
 * count × (32-byte sha256 of the UTF-8 text | dim × f32).
 */
const MAGIC = Buffer.from('TTXEMB01', 'latin1');
const HEADER = MAGIC.length + 8;
const SEGMENT_EXT = '.seg';
const COMPACT_OVER = 16;

interface Store {
  dir: string;
  dim: number;
  vectors: Map<string, Float32Array>;
  skippedFiles: number;
}

// Loaded once per process and shared by every wrapper of the same encoder + fingerprint.
const stores = new Map<string, Store>();
let segmentCounter = 0;

export function textKey(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function encodeSegment(dim: number, entries: readonly (readonly [string, Float32Array])[]): Buffer {
  const rec = 32 + 4 * dim;
  const buf = Buffer.alloc(HEADER + entries.length * rec);
  MAGIC.copy(buf, 0);
  buf.writeUInt32LE(dim, MAGIC.length);
  buf.writeUInt32LE(entries.length, MAGIC.length + 4);
  let off = HEADER;
  for (const [key, v] of entries) {
    buf.write(key, off, 32, 'hex');
    off += 32;
    for (let j = 0; j < dim; j++, off += 4) buf.writeFloatLE(v[j]!, off);
  }
  return buf;
}

/** Parse a segment; undefined when it is not a complete segment of this dimension. */
export function decodeSegment(buf: Buffer, dim: number): Map<string, Float32Array> | undefined {
  if (buf.length < HEADER || !buf.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  if (buf.readUInt32LE(MAGIC.length) !== dim) return undefined;
  const count = buf.readUInt32LE(MAGIC.length + 4);
  const rec = 32 + 4 * dim;
  if (buf.length !== HEADER + count * rec) return undefined;
  const out = new Map<string, Float32Array>();
  let off = HEADER;
  for (let i = 0; i < count; i++) {
    const key = buf.toString('hex', off, off + 32);
    off += 32;
    const v = new Float32Array(dim);
    for (let j = 0; j < dim; j++, off += 4) v[j] = buf.readFloatLE(off);
    out.set(key, v);
  }
  return out;
}

function cacheDirFor(root: string, encoder: FingerprintedEncoder): string {
  const fingerprint = encoder.fingerprint ?? 'v1';
  const tag = createHash('sha256').update(`${encoder.name}\u0000${fingerprint}\u0000${encoder.dim}`).digest('hex').slice(0, 12);
  return join(resolve(root), `${encoder.name.replace(/[^A-Za-z0-9_-]/g, '_')}-${tag}`);
}

function listSegments(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith(SEGMENT_EXT))
      .sort();
  } catch {
    return [];
  }
}

function writeSegment(dir: string, dim: number, entries: readonly (readonly [string, Float32Array])[]): void {
  const name = `${Date.now().toString(36)}-${process.pid}-${(segmentCounter++).toString(36)}${SEGMENT_EXT}`;
  writeFileAtomic(join(dir, name), encodeSegment(dim, entries));
}

function loadStore(dir: string, encoder: FingerprintedEncoder): Store {
  const store: Store = { dir, dim: encoder.dim, vectors: new Map(), skippedFiles: 0 };
  const files = listSegments(dir);
  const read: string[] = [];
  for (const file of files) {
    let buf: Buffer;
    try {
      buf = readFileSync(join(dir, file));
    } catch {
      continue; // Removed by another process compacting: its vectors are in the merged segment.
    }
    const seg = decodeSegment(buf, encoder.dim);
    if (!seg) {
      store.skippedFiles++;
      continue;
    }
    read.push(file);
    for (const [k, v] of seg) store.vectors.set(k, v);
  }
  // Many small segments (one per batch or per query) slow the next load: merge them.
  if (read.length > COMPACT_OVER) {
    writeSegment(dir, encoder.dim, [...store.vectors]);
    for (const file of read) rmSync(join(dir, file), { force: true });
  }
  // A human-readable label for the directory; written once.
  if (!existsSync(join(dir, 'meta.json')))
    writeFileAtomic(
      join(dir, 'meta.json'),
      toStableJson({ encoder: encoder.name, fingerprint: encoder.fingerprint ?? 'v1', dim: encoder.dim, description: encoder.description }),
    );
  return store;
}

/**
 * Wraps an encoder with a persistent embedding cache keyed by encoder name + fingerprint and
 * the sha256 of each text. Only texts not yet cached reach the encoder, deduplicated and in
 * batches. Returned vectors are copies, so callers cannot corrupt the cache.
 */
export class CachedEncoder implements Encoder {
  readonly name: string;
  readonly dim: number;
  readonly description: string;
  readonly fingerprint: string | undefined;
  /** Directory holding this encoder's segments. */
  readonly dir: string;
  private readonly batchSize: number;
  private counts = { hits: 0, misses: 0, encoderCalls: 0 };

  constructor(
    private readonly inner: FingerprintedEncoder,
    options: DiskCacheOptions = {},
  ) {
    this.name = inner.name;
    this.dim = inner.dim;
    this.fingerprint = inner.fingerprint;
    this.dir = cacheDirFor(options.dir ?? embeddingCacheDir(), inner);
    // Same description as the encoder: cached vectors are bit-identical, and a machine-specific
    // cache path would make result files differ between machines.
    this.description = inner.description;
    this.batchSize = options.batchSize ?? 256;
    if (!Number.isInteger(this.batchSize) || this.batchSize <= 0)
      throw new Error(`embedding cache: batchSize must be a positive integer, got ${this.batchSize}`);
  }

  private store(): Store {
    let store = stores.get(this.dir);
    if (!store) {
      store = loadStore(this.dir, this.inner);
      stores.set(this.dir, store);
    }
    return store;
  }

  stats(): CacheStats {
    const store = this.store();
    return { ...this.counts, entries: store.vectors.size, skippedFiles: store.skippedFiles };
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const store = this.store();
    const keys = texts.map(textKey);
    const todo = new Map<string, string>(); // key -> text, distinct uncached texts in first-seen order
    keys.forEach((k, i) => {
      if (!store.vectors.has(k) && !todo.has(k)) todo.set(k, texts[i]!);
    });
    this.counts.misses += todo.size;
    this.counts.hits += texts.length - todo.size;

    const pending = [...todo];
    for (let i = 0; i < pending.length; i += this.batchSize) {
      const batch = pending.slice(i, i + this.batchSize);
      this.counts.encoderCalls++;
      const vectors = await this.inner.embed(batch.map(([, t]) => t));
      if (vectors.length !== batch.length)
        throw new Error(`${this.name}: encoder returned ${vectors.length} vectors for ${batch.length} texts`);
      const entries = batch.map(([k], j) => {
        const v = vectors[j]!;
        if (v.length !== this.dim) throw new Error(`${this.name}: encoder returned a ${v.length}-d vector, expected ${this.dim}`);
        return [k, Float32Array.from(v)] as const;
      });
      writeSegment(this.dir, this.dim, entries);
      for (const [k, v] of entries) store.vectors.set(k, v);
    }
    return keys.map((k) => store.vectors.get(k)!.slice());
  }
}

/** Convenience: `withDiskCache(await createEncoder('use-lite'))`. */
export function withDiskCache(encoder: FingerprintedEncoder, options: DiskCacheOptions = {}): CachedEncoder {
  return new CachedEncoder(encoder, options);
}
