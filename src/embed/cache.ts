import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { blockRows } from '../util/block-rows.ts';
import { toStableJson, writeFileAtomic } from '../util/files.ts';
import { FLOAT32, loadSegments, textKey, writeSegment } from '../util/vector-segments.ts';
import type { Encoder } from './types.ts';
import { cached, runCache } from '../util/run-scope.ts';

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
  /** The model behind the cache when the wrapped encoder is not it (worker threads around it): what a latency study times. */
  model?: Encoder;
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

// Storage: one directory per (encoder name, fingerprint), float32 segments (../util/vector-segments.ts).

interface Store {
  dir: string;
  dim: number;
  vectors: Map<string, Float32Array>;
  skippedFiles: number;
}

// Loaded once per run (src/util/run-scope.ts) and shared by every wrapper of the same encoder + fingerprint in it.
const STORES = runCache('embedding stores by cache folder', () => new Map<string, Store>());

function cacheDirFor(root: string, encoder: FingerprintedEncoder): string {
  const fingerprint = encoder.fingerprint ?? 'v1';
  const tag = createHash('sha256').update(`${encoder.name}\u0000${fingerprint}\u0000${encoder.dim}`).digest('hex').slice(0, 12);
  return join(resolve(root), `${encoder.name.replace(/[^A-Za-z0-9_-]/g, '_')}-${tag}`);
}

function loadStore(dir: string, encoder: FingerprintedEncoder): Store {
  const store: Store = { dir, dim: encoder.dim, ...loadSegments(FLOAT32, dir, encoder.dim) };
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
  /** The model behind the cache, in this thread (DiskCacheOptions.model; else the wrapped encoder). */
  readonly model: Encoder;
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
    this.model = options.model ?? inner;
    // Same description as the encoder: cached vectors are bit-identical, and a machine-specific
    // cache path would make result files differ between machines.
    this.description = inner.description;
    // Large enough that the use-lite workers get long runs of equal-length texts (a cold run's
    // texts come sorted by length), small enough that an interrupted run keeps most of its work.
    this.batchSize = options.batchSize ?? 1024;
    if (!Number.isInteger(this.batchSize) || this.batchSize <= 0)
      throw new Error(`embedding cache: batchSize must be a positive integer, got ${this.batchSize}`);
  }

  private store(): Store {
    const stores = cached(STORES);
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
    const keys = await this.cache(texts);
    const store = this.store();
    // Copies, in one block for the call.
    const copies = blockRows(Float32Array, keys.length, this.dim);
    keys.forEach((k, i) => copies[i]!.set(store.vectors.get(k)!));
    return copies;
  }

  /** Embeds and caches the texts not cached yet, returning no copies (an up-front pass does not read them). */
  async warm(texts: readonly string[]): Promise<void> {
    await this.cache(texts);
  }

  /** The texts' cache keys, after every uncached one was encoded and written. */
  private async cache(texts: readonly string[]): Promise<string[]> {
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
        return [k, v] as const;
      });
      // The cache keeps the written segment's views (shared with worker threads), not the encoder's arrays.
      for (const [k, v] of writeSegment(FLOAT32, this.dir, this.dim, entries)) store.vectors.set(k, v);
    }
    return keys;
  }
}

/** Convenience: `withDiskCache(await createEncoder('use-lite'))`. */
export function withDiskCache(encoder: FingerprintedEncoder, options: DiskCacheOptions = {}): CachedEncoder {
  return new CachedEncoder(encoder, options);
}
