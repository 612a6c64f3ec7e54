import { describe, expect, it } from 'vitest';
import { l2Normalize } from '../../src/embed/vector.ts';
import { ExactFlatIpIndex } from '../../src/index/exact-flat-ip.ts';
import { FaissFlatIpIndex, loadFaiss } from '../../src/index/faiss-flat-ip.ts';
import { loadNativeFlatIp, NativeFlatIpIndex } from '../../src/index/native-flat-ip.ts';
import { Rng } from '../../src/util/rng.ts';
import type { SgemmAddon } from '../../src/util/sgemm-addon.ts';

// native/sgemm is built by npm's postinstall and, strictly, in CI; faiss by scripts/build-faiss.sh.
const native = loadNativeFlatIp();
const faiss = await loadFaiss();
if (!native.ok) console.warn(`[native-flat-ip] tests skipped: ${native.reason}`);

const v = (...xs: number[]) => Float32Array.from(xs);

function randomVectors(rng: Rng, n: number, dim: number, unit = true): Float32Array[] {
  return Array.from({ length: n }, () => {
    const x = Float32Array.from({ length: dim }, () => rng.next() * 2 - 1);
    return unit ? l2Normalize(x) : x;
  });
}

/** The score faiss 1.7.3 (Debian) computes: float32 products, summed in order from 0 in float32. */
function sequentialFloat32(q: Float32Array, x: Float32Array): number {
  let s = 0;
  for (let k = 0; k < q.length; k++) s = Math.fround(s + Math.fround(q[k]! * x[k]!));
  return s;
}

describe.skipIf(!native.ok)('native-flat-ip index', () => {
  const make = (dim: number) => new NativeFlatIpIndex((native as { ok: true; addon: SgemmAddon }).addon, dim);

  it('scores every row as a float32 sum in order, across panel edges and odd dimensions, on every kernel the CPU runs', () => {
    const { addon } = native as { ok: true; addon: SgemmAddon };
    const before = addon.kernel();
    for (const kernel of addon.kernels()) {
      addon.useKernel(kernel);
      scoresInOrder(kernel);
    }
    addon.useKernel(before);
  });

  function scoresInOrder(kernel: string) {
    const rng = new Rng(11, 'native-flat-ip');
    for (const [n, dim] of [
      [1, 1],
      [31, 3],
      [32, 17],
      [33, 64],
      [100, 513],
    ] as const) {
      const rows = randomVectors(rng, n, dim, false);
      const ix = make(dim);
      ix.add(
        rows.map((_, i) => `r${i}`),
        rows,
      );
      for (const q of randomVectors(rng, 3, dim, false)) {
        const hits = ix.search(q, n);
        expect(hits).toHaveLength(n);
        for (const h of hits) expect(h.score, `${kernel} ${n}×${dim} ${h.id}`).toBe(sequentialFloat32(q, rows[Number(h.id.slice(1))]!));
      }
    }
  }

  it('ranks like the exact index, ties by id at the cut, and grows across adds', () => {
    const ix = make(2);
    const exact = new ExactFlatIpIndex(2);
    const ids = ['z', 'm', 'a', 'q', 'top'];
    const vecs = [v(0, 1), v(0, 1), v(0, 1), v(0, 1), v(1, 1)];
    ix.add(ids.slice(0, 2), vecs.slice(0, 2));
    ix.add(ids.slice(2), vecs.slice(2));
    exact.add(ids, vecs);
    for (const k of [0, 1, 2, 3, 5, 9]) expect(ix.search(v(0, 1), k)).toEqual(exact.search(v(0, 1), k));
    const rng = new Rng(3, 'native-grow');
    const many = randomVectors(rng, 300, 8);
    const big = make(8);
    const ref = new ExactFlatIpIndex(8);
    for (let start = 0; start < 300; start += 70) {
      const part = many.slice(start, start + 70);
      const partIds = part.map((_, i) => `t${start + i}`);
      big.add(partIds, part);
      ref.add(partIds, part);
    }
    expect(big.size).toBe(300);
    for (const q of randomVectors(rng, 20, 8)) expect(big.search(q, 10).map((h) => h.id)).toEqual(ref.search(q, 10).map((h) => h.id));
  });

  it('fails like the other indexes on bad input', () => {
    const ix = make(2);
    expect(ix.name).toBe('native-flat-ip');
    expect(ix.search(v(1, 0), 3)).toEqual([]);
    ix.add(['a'], [v(1, 0)]);
    expect(() => ix.add(['a'], [v(0, 1)])).toThrow(/duplicate id "a"/);
    expect(() => ix.add(['c'], [v(1, 0, 0)])).toThrow(/dimension 3/);
    expect(() => ix.search(v(1), 1)).toThrow(/query has dimension 1/);
    expect(() => ix.search(v(1, 0), -1)).toThrow(/non-negative integer/);
    expect(() => make(0)).toThrow(/positive integer/);
  });

  it('the addon refuses arrays that are not whole panels', () => {
    const { addon } = native as { ok: true; addon: SgemmAddon };
    expect(() => addon.innerProducts(new Float32Array(2), new Float32Array(63), new Float32Array(32))).toThrow(/whole panels/);
    expect(() => addon.innerProducts(new Float32Array(2), new Float32Array(64), new Float32Array(31))).toThrow(/whole panels/);
    expect(() => addon.innerProducts(new Float64Array(2) as never, new Float32Array(64), new Float32Array(32))).toThrow(/Float32Array/);
    expect(() => addon.innerProducts(new Float32Array(0), new Float32Array(0), new Float32Array(0))).toThrow(/whole panels/);
  });

  it.skipIf(!faiss.ok)('gives faiss IndexFlatIP the same scores bit for bit, and the same hits', () => {
    if (!faiss.ok) return;
    const rng = new Rng(5, 'native-vs-faiss');
    for (const [n, dim] of [
      [120, 512],
      [1000, 64],
      [45, 7],
    ] as const) {
      const rows = randomVectors(rng, n, dim);
      const ids = rows.map((_, i) => `tool-${i}`);
      const ix = make(dim);
      const ref = new FaissFlatIpIndex(faiss.module, dim);
      ix.add(ids, rows);
      ref.add(ids, rows);
      for (const q of randomVectors(rng, 10, dim)) {
        expect(ix.search(q, n)).toEqual(ref.search(q, n));
        expect(ix.search(q, 10)).toEqual(ref.search(q, 10));
      }
    }
  });
});
