import type { CatalogTool } from '../catalog/types.ts';
import type { Encoder } from '../embed/types.ts';
import { createVectorIndex, type CreateVectorIndexOptions } from '../index/registry.ts';
import type { VectorIndex } from '../index/types.ts';

export interface ToolIndex {
  index: VectorIndex;
  /** Why this index implementation ran (faiss version, or why it fell back). */
  note: string;
  /** Each tool's vector, by tool id (for calibration and audits). */
  vectors: Map<string, Float32Array>;
}

/** Embed one text per tool (one batched call) and index the vectors under the tool ids. */
export async function buildToolIndex(
  encoder: Encoder,
  tools: readonly CatalogTool[],
  textOf: (tool: CatalogTool) => string,
  prefer: CreateVectorIndexOptions['prefer'] = 'auto',
): Promise<ToolIndex> {
  const vectors = await encoder.embed(tools.map(textOf));
  const { index, note } = await createVectorIndex(encoder.dim, { prefer });
  const ids = tools.map((t) => t.id);
  index.add(ids, vectors);
  return { index, note, vectors: new Map(ids.map((id, i) => [id, vectors[i]!])) };
}
