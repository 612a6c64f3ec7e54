import type { Precondition } from './types.ts';

/**
 * Harness metadata kept beside a tools/list dump in `catalog.meta.json`: what a tool's
 * definition does not carry (summary, tags, preconditions, a sample response). A user's own
 * catalog may have one; without it, summaries are derived from descriptions.
 */
export const META_FILE = 'catalog.meta.json';

export interface ToolMeta {
  summary?: string;
  tags?: string[];
  preconditions?: Precondition[];
  sampleResponse?: unknown;
}

export interface CatalogMetaFile {
  generator?: string;
  seed?: number;
  /** Keyed by tool id `server/name`. */
  tools: Record<string, ToolMeta>;
}
