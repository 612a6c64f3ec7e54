import { Bench } from 'tinybench';
import type { VectorIndex } from '../index/types.ts';
import { CachedEncoder } from './cache.ts';
import type { Encoder } from './types.ts';
import { quantileSorted } from '../stats/bootstrap.ts';

export interface LatencyStats {
  p50: number;
  p95: number;
  mean: number;
  samples: number;
}

export interface RouterLatency {
  encoder: string;
  encoderDescription: string;
  /** True when the encoder was a CachedEncoder: then encode times are mostly cache lookups. */
  encoderCached: boolean;
  index: string;
  indexSize: number;
  queries: number;
  k: number;
  /** Milliseconds to embed one query (one embed() call with one text). */
  encodeMs: LatencyStats;
  /** Milliseconds for one index.search(query, k) on a precomputed query vector. */
  searchMs: LatencyStats;
}

export interface RouterLatencyOptions {
  /** Tools returned per query (default 10). */
  k?: number;
  /** Minimum time budget per measured task in ms (default 1000). */
  timeMs?: number;
  /** Minimum iterations per task (default: the number of queries, so each is seen once). */
  iterations?: number;
}

/** Linear-interpolated percentile of ascending samples (same rule as numpy's default). */
export const percentile = quantileSorted;

function summarise(samples: readonly number[]): LatencyStats {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((s, x) => s + x, 0) / Math.max(1, sorted.length);
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), mean, samples: sorted.length };
}

/**
 * Router latency split into its two parts, because they scale differently: encoding one query
 * (model-bound, independent of the catalog size) and searching the index (grows with the
 * number of tools). Each iteration handles one query, cycling through the list, as a router
 * does at request time. Pass the raw encoder: a cached one measures lookups, not the model.
 */
export async function benchRouterLatency(
  encoder: Encoder,
  index: VectorIndex,
  queries: readonly string[],
  options: RouterLatencyOptions = {},
): Promise<RouterLatency> {
  if (queries.length === 0) throw new Error('benchRouterLatency: no queries');
  if (encoder.dim !== index.dim) throw new Error(`benchRouterLatency: encoder is ${encoder.dim}-d but the index is ${index.dim}-d`);
  const k = options.k ?? 10;
  const time = options.timeMs ?? 1000;
  const iterations = options.iterations ?? queries.length;

  // Query vectors for the search task come from one batched call, outside the timing.
  const vectors = await encoder.embed(queries);
  let nextEncode = 0;
  let nextSearch = 0;
  let sink = 0; // Consumed below so the search cannot be optimised away.

  const bench = new Bench({ name: 'router-latency', time, iterations, retainSamples: true, warmupIterations: 5 });
  bench.add('encode', async () => {
    await encoder.embed([queries[nextEncode++ % queries.length]!]);
  });
  bench.add('search', () => {
    sink += index.search(vectors[nextSearch++ % vectors.length]!, k).length;
  });
  await bench.run();
  if (sink < 0) throw new Error('unreachable');

  const stats = (name: string): LatencyStats => {
    const task = bench.getTask(name);
    const result = task?.result;
    if (!result || !('latency' in result)) {
      const reason = result && 'error' in result ? result.error.message : (result?.state ?? 'missing');
      throw new Error(`benchRouterLatency: task ${name} did not complete: ${reason}`);
    }
    return summarise(result.latency.samples ?? []);
  };

  return {
    encoder: encoder.name,
    encoderDescription: encoder.description,
    encoderCached: encoder instanceof CachedEncoder,
    index: index.name,
    indexSize: index.size,
    queries: queries.length,
    k,
    encodeMs: stats('encode'),
    searchMs: stats('search'),
  };
}
