import type { Catalog } from '../catalog/types.ts';
import { CachedEncoder, embeddingCacheDir } from '../embed/cache.ts';
import { embedWorkerCount, withEmbedWorkers } from '../embed/worker-pool.ts';
import { createEncoder, DEFAULT_ENCODER, isEncoderName, ENCODER_NAMES, type EncoderName } from '../embed/registry.ts';
import type { Encoder } from '../embed/types.ts';
import { cached, runCache } from '../util/run-scope.ts';
/** What resolving an encoder needs of a pipeline's context. */
export type EncoderScope = { catalog: Catalog; encoder?: Encoder };
import { toolDefinitionText, toolSummaryText } from './texts.ts';

export interface BenchEncoderOptions {
  /** Disk cache root (default $TOOLTAX_CACHE_DIR, else `.cache/embeddings` under the working directory). */
  cacheDir?: string;
  /** Wrap in the disk cache (default true; TF-IDF is never disk-cached: it is cheap and wide). */
  cache?: boolean;
}

/** The texts TF-IDF is fitted on: every tool-side text the pipelines embed. */
export function tfidfCorpus(catalog: Catalog): string[] {
  return catalog.tools.flatMap((t) => [toolSummaryText(t), toolDefinitionText(t, 'definition')]);
}

/**
 * The bench's encoder: created by name, its model loaded once, wrapped in the persistent
 * embedding cache (`.cache/embeddings`). TF-IDF is fitted on the catalog's tool texts.
 */
export async function createBenchEncoder(name: string, catalog: Catalog, options: BenchEncoderOptions = {}): Promise<Encoder> {
  if (!isEncoderName(name)) throw new Error(`unknown encoder ${JSON.stringify(name)}; expected one of ${ENCODER_NAMES.join(', ')}`);
  const raw = await createEncoder(name, { cache: false, tfidf: name === 'tfidf' ? { corpus: tfidfCorpus(catalog) } : undefined });
  if (name === 'tfidf' || options.cache === false) return raw;
  // Cache misses in bulk (a cold run) are embedded by worker threads; the raw model stays in-thread for latency timing.
  const inner = name === 'use-lite' ? withEmbedWorkers(raw, embedWorkerCount()) : raw;
  // The raw model stays the one a latency study times (uncachedEncoder), not the worker threads around it.
  return new CachedEncoder(inner, { dir: options.cacheDir ?? embeddingCacheDir(), model: raw });
}

/** The uncached model behind an encoder made by createBenchEncoder (itself otherwise). */
export function uncachedEncoder(encoder: Encoder): Encoder {
  return encoder instanceof CachedEncoder ? encoder.model : encoder;
}

// Encoders created for pipeline overrides, shared by every pipeline of the run that asks for the same one.
const OVERRIDES = runCache(
  'encoders of pipeline overrides by catalog and name',
  () => new WeakMap<Catalog, Map<string, Promise<Encoder>>>(),
);

/**
 * The encoder a retrieval pipeline uses: an Encoder instance as given; a name equal to the
 * bench's encoder → the bench's; another name → created once per catalog (ablations, e.g.
 * Tool Attention with TF-IDF); nothing → the bench's encoder, or the default one.
 */
export async function resolveEncoder(ctx: EncoderScope, override?: EncoderName | Encoder): Promise<Encoder> {
  if (override !== undefined && typeof override !== 'string') return override;
  const name = override ?? ctx.encoder?.name ?? DEFAULT_ENCODER;
  if (ctx.encoder && ctx.encoder.name === name) return ctx.encoder;
  const overrides = cached(OVERRIDES);
  let byName = overrides.get(ctx.catalog);
  if (!byName) overrides.set(ctx.catalog, (byName = new Map()));
  let created = byName.get(name);
  if (!created) byName.set(name, (created = createBenchEncoder(name, ctx.catalog)));
  return created;
}
