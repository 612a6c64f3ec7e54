import { createHash } from 'node:crypto';
import { ownSourceFile } from '../util/own-source.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog, CatalogTool } from '../catalog/types.ts';
import type { Encoder } from '../embed/types.ts';
import { cosineScores } from '../embed/vector.ts';
import { blockRows } from '../util/block-rows.ts';
import { diskScoreStore, withScoreStore } from './score-store.ts';
import { toolSummaryText } from './texts.ts';
import type { FittedRetriever, Retriever } from './types.ts';

export interface DenseOptions {
  /** Where scores are kept on disk (default `.cache/retrieval` under the working directory); `false` = never. */
  cacheDir?: string | false;
}

// The scores also depend on how cosines are computed: these files' text is part of the cache key.
const SCORE_SOURCES = ['dense.ts', '../embed/vector.ts'];

/**
 * `dense:<encoder>`: cosine between the query embedding and the embedding of the tool's
 * `server/name: summary` line (the text Tool Attention's ISO score uses, paper §4.2). The
 * encoder comes from a factory so it is created (and its model loaded) only when this
 * retriever is fitted: the lexical retrievers never need it. Scores are kept on disk by the
 * encoder, the tool vectors and the query text, like the learned reranker's: the default
 * retriever's hybrid half asks for the same messages in every thread and every run.
 */
export function createDenseRetriever(
  encoderName: string,
  encoderFor: (catalog: Pick<Catalog, 'tools'>) => Promise<Encoder>,
  options: DenseOptions = {},
): Retriever {
  const cacheDir = options.cacheDir ?? join('.cache', 'retrieval');
  return {
    name: `dense:${encoderName}`,
    description: `dense cosine, encoder ${encoderName}`,
    toolText: 'server/name: summary (the phase-1 line)',
    scale: 'cosine',
    async fit(tools: readonly CatalogTool[]): Promise<FittedRetriever> {
      const encoder = await encoderFor({ tools: [...tools] });
      const vectors = await encoder.embed(tools.map(toolSummaryText));
      const ids = tools.map((t) => t.id);
      const computed: FittedRetriever = {
        ids,
        async score(queries) {
          const qs = await encoder.embed(queries);
          // Rounded to float32 as the vector indexes return scores, so rankings equal an index search.
          const rows = blockRows(Float64Array, qs.length, vectors.length);
          return qs.map((q, i) => cosineScores(q, vectors, rows[i]));
        },
      };
      if (cacheDir === false) return computed;
      const hash = createHash('sha256').update(JSON.stringify([encoder.name, encoder.description]));
      for (const file of SCORE_SOURCES) hash.update(readFileSync(ownSourceFile(new URL(file, import.meta.url))));
      for (const v of vectors) hash.update(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
      const key = hash.digest('hex').slice(0, 16);
      return withScoreStore(computed, diskScoreStore(join(cacheDir, `dense-scores-${key}`), ids.length));
    },
  };
}
