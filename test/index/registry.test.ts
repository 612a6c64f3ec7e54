import { describe, expect, it } from 'vitest';
import { loadFaiss } from '../../src/index/faiss-flat-ip.ts';
import { loadNativeFlatIp } from '../../src/index/native-flat-ip.ts';
import { createVectorIndex } from '../../src/index/registry.ts';

describe('createVectorIndex', () => {
  it('gives the exact index when asked', async () => {
    const { index, note } = await createVectorIndex(4, { prefer: 'exact' });
    expect(index.name).toBe('exact-flat-ip');
    expect(note).toMatch(/exact/);
  });

  it('prefers the native scan, then faiss, else falls back and records why', async () => {
    const native = loadNativeFlatIp();
    const faiss = await loadFaiss();
    const { index, note } = await createVectorIndex(4);
    if (native.ok) {
      expect(index.name).toBe('native-flat-ip');
      expect(note).toMatch(/^native\/sgemm/);
    } else if (faiss.ok) {
      expect(index.name).toBe('faiss-flat-ip');
      await expect(createVectorIndex(4, { prefer: 'native' })).rejects.toThrow(/native index requested but/);
    } else {
      expect(index.name).toBe('exact-flat-ip');
      expect(note).toContain(native.reason);
      expect(note).toContain(faiss.reason);
    }
    if (faiss.ok) {
      const f = await createVectorIndex(4, { prefer: 'faiss' });
      expect(f.index.name).toBe('faiss-flat-ip');
      expect(f.note).toMatch(/^faiss-node \d/);
    } else await expect(createVectorIndex(4, { prefer: 'faiss' })).rejects.toThrow(/faiss index requested but/);
    index.add(['x'], [Float32Array.from([1, 0, 0, 0])]);
    expect(index.search(Float32Array.from([1, 0, 0, 0]), 1)).toEqual([{ id: 'x', score: 1 }]);
  });
});
