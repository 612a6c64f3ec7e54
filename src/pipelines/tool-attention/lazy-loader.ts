/**
 * Phase 2's lazy schema loader (paper §4.4, §5.1, Appendix A.3): full schemas are fetched on
 * demand from an out-of-context registry and kept in an LRU cache keyed by tool id. A Map keeps
 * insertion order, so the first key is the least recently used.
 */
export interface LoaderStats {
  capacity: number;
  hits: number;
  misses: number;
  evictions: number;
  size: number;
}

export class LazySchemaLoader<T> {
  private readonly cache = new Map<string, T>();
  private counts = { hits: 0, misses: 0, evictions: 0 };

  constructor(
    readonly capacity: number,
    private readonly fetch: (toolId: string) => T,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`lazy loader: capacity must be a positive integer, got ${capacity}`);
  }

  /** The schema of a tool: from the cache (and marked most recently used), or fetched and cached. */
  get(toolId: string): T {
    if (this.cache.has(toolId)) {
      const value = this.cache.get(toolId)!;
      this.cache.delete(toolId);
      this.cache.set(toolId, value);
      this.counts.hits++;
      return value;
    }
    this.counts.misses++;
    const value = this.fetch(toolId);
    this.cache.set(toolId, value);
    if (this.cache.size > this.capacity) {
      const oldest = this.cache.keys().next().value as string;
      this.cache.delete(oldest);
      this.counts.evictions++;
    }
    return value;
  }

  /** Cached tool ids, least recently used first. */
  keys(): string[] {
    return [...this.cache.keys()];
  }

  stats(): LoaderStats {
    return { capacity: this.capacity, ...this.counts, size: this.cache.size };
  }
}
