import { ExactFlatIpIndex } from './exact-flat-ip.ts';
import { FaissFlatIpIndex, loadFaiss } from './faiss-flat-ip.ts';
import { HnswIpIndex, loadHnsw } from './hnsw-ip.ts';
import type { VectorIndex } from './types.ts';

export type VectorIndexName = 'faiss-flat-ip' | 'exact-flat-ip' | 'hnsw-ip';

export interface CreateVectorIndexOptions {
  /**
   * `auto` (default): faiss when it loads, else exact. `faiss`: faiss or throw with the reason.
   * `exact`: always the in-process index. `hnsw`: the approximate HNSW graph (hnswlib-node) or
   * throw with the reason; never chosen by `auto`, since it can miss a true top-k tool.
   */
  prefer?: 'auto' | 'faiss' | 'exact' | 'hnsw';
}

export interface CreatedVectorIndex {
  index: VectorIndex;
  /** Why this implementation was chosen (e.g. why faiss was not), for result files. */
  note: string;
}

/**
 * Pick the vector index. Results should record `index.name` and `note`, since the two
 * implementations are expected to agree but a reader must know which one ran.
 */
export async function createVectorIndex(dim: number, options: CreateVectorIndexOptions = {}): Promise<CreatedVectorIndex> {
  const prefer = options.prefer ?? 'auto';
  if (prefer === 'exact') return { index: new ExactFlatIpIndex(dim), note: 'exact index requested' };
  if (prefer === 'hnsw') {
    const hnsw = await loadHnsw();
    if (!hnsw.ok) throw new Error(`hnsw index requested but ${hnsw.reason}`);
    return { index: new HnswIpIndex(hnsw.module, dim), note: `hnswlib-node ${hnsw.version}` };
  }
  const faiss = await loadFaiss();
  if (faiss.ok) return { index: new FaissFlatIpIndex(faiss.module, dim), note: `faiss-node ${faiss.version}` };
  if (prefer === 'faiss') throw new Error(`faiss index requested but ${faiss.reason}`);
  return { index: new ExactFlatIpIndex(dim), note: `fell back to exact-flat-ip: ${faiss.reason}` };
}
