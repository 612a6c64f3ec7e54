import { ExactFlatIpIndex } from './exact-flat-ip.ts';
import { FaissFlatIpIndex, loadFaiss } from './faiss-flat-ip.ts';
import { HnswIpIndex, loadHnsw } from './hnsw-ip.ts';
import { loadNativeFlatIp, NativeFlatIpIndex } from './native-flat-ip.ts';
import type { VectorIndex } from './types.ts';

export type VectorIndexName = 'native-flat-ip' | 'faiss-flat-ip' | 'exact-flat-ip' | 'hnsw-ip';

export interface CreateVectorIndexOptions {
  /**
   * `auto` (default): the native/sgemm scan when it is built, else faiss when it loads, else
   * exact; the first two give the same scores bit for bit, and the native one is the faster
   * (its own SIMD scan, where faiss-node copies each query into C++). `native`, `faiss`: that
   * one or throw with the reason. `exact`: always the TypeScript index. `hnsw`: the approximate
   * HNSW graph (hnswlib-node) or throw with the reason; never chosen by `auto`, since it can
   * miss a true top-k tool.
   */
  prefer?: 'auto' | 'native' | 'faiss' | 'exact' | 'hnsw';
}

export interface CreatedVectorIndex {
  index: VectorIndex;
  /** Why this implementation was chosen (e.g. why faiss was not), for result files. */
  note: string;
}

/**
 * Pick the vector index. Results should record `index.name` and `note`, since the
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
  const native = prefer === 'auto' || prefer === 'native' ? loadNativeFlatIp() : undefined;
  if (native?.ok) return { index: new NativeFlatIpIndex(native.addon, dim), note: 'native/sgemm scan (the scores of faiss IndexFlatIP)' };
  if (native && prefer === 'native') throw new Error(`native index requested but ${native.reason}`);
  const faiss = await loadFaiss();
  if (faiss.ok) return { index: new FaissFlatIpIndex(faiss.module, dim), note: `faiss-node ${faiss.version}` };
  if (prefer === 'faiss') throw new Error(`faiss index requested but ${faiss.reason}`);
  return { index: new ExactFlatIpIndex(dim), note: `fell back to exact-flat-ip: ${native ? `${native.reason}; ` : ''}${faiss.reason}` };
}
