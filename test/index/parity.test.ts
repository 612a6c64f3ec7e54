import { describe, expect, it } from 'vitest';
import { l2Normalize } from '../../src/embed/vector.ts';
import { ExactFlatIpIndex } from '../../src/index/exact-flat-ip.ts';
import { FaissFlatIpIndex, loadFaiss } from '../../src/index/faiss-flat-ip.ts';
import { Rng } from '../../src/util/rng.ts';

const faiss = await loadFaiss();
if (!faiss.ok) console.warn(`[parity] faiss tests skipped: ${faiss.reason}`);

function randomUnitVectors(rng: Rng, n: number, dim: number): Float32Array[] {
  return Array.from({ length: n }, () => l2Normalize(Float32Array.from({ length: dim }, () => rng.next() * 2 - 1)));
}

describe('faiss vs exact index parity', () => {
  it.skipIf(!faiss.ok)(`same top-k on random vectors${faiss.ok ? '' : ` (skipped: ${faiss.reason})`}`, () => {
    if (!faiss.ok) return;
    const rng = new Rng(7, 'index-parity');
    const dim = 64;
    const vectors = randomUnitVectors(rng, 1000, dim);
    const ids = vectors.map((_, i) => `tool-${i}`);
    const exact = new ExactFlatIpIndex(dim);
    const fast = new FaissFlatIpIndex(faiss.module, dim);
    // Two adds, the first larger than one slice handed to faiss: labels must keep mapping.
    exact.add(ids.slice(0, 700), vectors.slice(0, 700));
    exact.add(ids.slice(700), vectors.slice(700));
    fast.add(ids.slice(0, 700), vectors.slice(0, 700));
    fast.add(ids.slice(700), vectors.slice(700));
    expect(fast.name).toBe('faiss-flat-ip');
    for (const q of randomUnitVectors(rng, 50, dim)) {
      const a = exact.search(q, 10);
      const b = fast.search(q, 10);
      expect(b.map((h) => h.id)).toEqual(a.map((h) => h.id));
      b.forEach((h, i) => expect(h.score).toBeCloseTo(a[i]!.score, 5));
    }
  });

  it.skipIf(!faiss.ok)('breaks ties by id like the exact index, also across the k cut', () => {
    if (!faiss.ok) return;
    const v = (...xs: number[]) => Float32Array.from(xs);
    const ids = ['z', 'm', 'a', 'q', 'top'];
    const vecs = [v(0, 1), v(0, 1), v(0, 1), v(0, 1), v(1, 1)];
    const exact = new ExactFlatIpIndex(2);
    const fast = new FaissFlatIpIndex(faiss.module, 2);
    exact.add(ids, vecs);
    fast.add(ids, vecs);
    for (const k of [1, 2, 3, 5, 9]) expect(fast.search(v(0, 1), k)).toEqual(exact.search(v(0, 1), k));
  });
});
