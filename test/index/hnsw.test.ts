import { describe, expect, it } from 'vitest';
import { l2Normalize } from '../../src/embed/vector.ts';
import { ExactFlatIpIndex } from '../../src/index/exact-flat-ip.ts';
import { HnswIpIndex, loadHnsw } from '../../src/index/hnsw-ip.ts';
import { createVectorIndex } from '../../src/index/registry.ts';
import { Rng } from '../../src/util/rng.ts';

const hnsw = await loadHnsw();

/** Seeded unit vectors in clusters (tool summaries are not uniform noise either). */
function vectors(n: number, dim: number): Float32Array[] {
  const rng = new Rng(42, 'hnsw-test');
  const centres = Array.from({ length: 20 }, () => Float32Array.from({ length: dim }, () => rng.normal()));
  return Array.from({ length: n }, () => {
    const c = rng.pick(centres);
    return l2Normalize(Float32Array.from(c, (x) => x + 0.6 * rng.normal()));
  });
}

describe.skipIf(!hnsw.ok)(`hnsw-ip index${hnsw.ok ? '' : ` (skipped: ${hnsw.reason})`}`, () => {
  const dim = 32;
  const data = vectors(2000, dim);
  const ids = data.map((_, i) => `t${String(i).padStart(4, '0')}`);

  it('finds most of the exact top-10 and is deterministic across builds', async () => {
    const exact = new ExactFlatIpIndex(dim);
    exact.add(ids, data);
    const build = async () => {
      const { index } = await createVectorIndex(dim, { prefer: 'hnsw' });
      index.add(ids.slice(0, 1000), data.slice(0, 1000));
      index.add(ids.slice(1000), data.slice(1000)); // grows past its first capacity
      return index;
    };
    const [a, b] = [await build(), await build()];
    expect(a.name).toBe('hnsw-ip');
    expect(a.size).toBe(2000);
    let found = 0;
    for (const q of vectors(100, dim)) {
      const truth = new Set(exact.search(q, 10).map((h) => h.id));
      const hits = a.search(q, 10);
      expect(b.search(q, 10)).toEqual(hits);
      expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((x, y) => y - x));
      found += hits.filter((h) => truth.has(h.id)).length;
    }
    expect(found / 1000).toBeGreaterThan(0.9);
  });

  it('a wider search beam finds more of the exact top-10: all of it when the beam covers the graph', async () => {
    const exact = new ExactFlatIpIndex(dim);
    exact.add(ids, data);
    const { index } = await createVectorIndex(dim, { prefer: 'hnsw' });
    index.add(ids, data);
    if (!(index instanceof HnswIpIndex)) throw new Error('expected the HNSW index');
    const queries = vectors(100, dim);
    const recall = (ef: number) => {
      index.efSearch = ef;
      let found = 0;
      for (const q of queries) {
        const truth = new Set(exact.search(q, 10).map((h) => h.id));
        found += index.search(q, 10).filter((h) => truth.has(h.id)).length;
      }
      return found / (10 * queries.length);
    };
    const narrow = recall(10);
    expect(narrow).toBeLessThan(1);
    expect(recall(data.length)).toBe(1);
  });

  it('rejects a wrong dimension like the other indexes', async () => {
    const { index } = await createVectorIndex(dim, { prefer: 'hnsw' });
    expect(() => index.add(['x'], [new Float32Array(dim + 1)])).toThrow(/dimension/);
    expect(index.search(new Float32Array(dim), 5)).toEqual([]);
  });
});
