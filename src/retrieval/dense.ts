import type { Catalog, CatalogTool } from '../catalog/types.ts';
import type { Encoder } from '../embed/types.ts';
import { cosineScores } from '../embed/vector.ts';
import { blockRows } from '../util/block-rows.ts';
import { toolSummaryText } from './texts.ts';
import type { FittedRetriever, Retriever } from './types.ts';

/**
 * `dense:<encoder>`: cosine between the query embedding and the embedding of the tool's
 * `server/name: summary` line (the text Tool Attention's ISO score uses, paper §4.2). The
 * encoder comes from a factory so it is created (and its model loaded) only when this
 * retriever is fitted: the lexical retrievers never need it.
 */
export function createDenseRetriever(encoderName: string, encoderFor: (catalog: Pick<Catalog, 'tools'>) => Promise<Encoder>): Retriever {
  return {
    name: `dense:${encoderName}`,
    description: `dense cosine, encoder ${encoderName}`,
    toolText: 'server/name: summary (the phase-1 line)',
    scale: 'cosine',
    async fit(tools: readonly CatalogTool[]): Promise<FittedRetriever> {
      const encoder = await encoderFor({ tools: [...tools] });
      const vectors = await encoder.embed(tools.map(toolSummaryText));
      const ids = tools.map((t) => t.id);
      return {
        ids,
        async score(queries) {
          const qs = await encoder.embed(queries);
          // Rounded to float32 as the vector indexes return scores, so rankings equal an index search.
          const rows = blockRows(Float64Array, qs.length, vectors.length);
          return qs.map((q, i) => cosineScores(q, vectors, rows[i]));
        },
      };
    },
  };
}
