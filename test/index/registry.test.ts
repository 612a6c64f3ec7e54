import { describe, expect, it } from 'vitest';
import { loadFaiss } from '../../src/index/faiss-flat-ip.ts';
import { createVectorIndex } from '../../src/index/registry.ts';

describe('createVectorIndex', () => {
  it('gives the exact index when asked', async () => {
    const { index, note } = await createVectorIndex(4, { prefer: 'exact' });
    expect(index.name).toBe('exact-flat-ip');
    expect(note).toMatch(/exact/);
  });

  it('prefers faiss when it loads, else falls back and records why', async () => {
    const faiss = await loadFaiss();
    const { index, note } = await createVectorIndex(4);
    if (faiss.ok) {
      expect(index.name).toBe('faiss-flat-ip');
      expect(note).toMatch(/^faiss-node \d/);
    } else {
      expect(index.name).toBe('exact-flat-ip');
      expect(note).toContain(faiss.reason);
      await expect(createVectorIndex(4, { prefer: 'faiss' })).rejects.toThrow(/faiss index requested but/);
    }
    index.add(['x'], [Float32Array.from([1, 0, 0, 0])]);
    expect(index.search(Float32Array.from([1, 0, 0, 0]), 1)).toEqual([{ id: 'x', score: 1 }]);
  });
});
