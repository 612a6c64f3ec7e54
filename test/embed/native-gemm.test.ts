import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installNativeGemm } from '../../src/embed/native-gemm.ts';
import { sgemmAddon, type SgemmAddon } from '../../src/util/sgemm-addon.ts';
import type { KernelRegistry } from '../../src/embed/tfjs-wasm-kernels.ts';
import { createUseLiteEncoder } from '../../src/embed/use-lite.ts';
import { Rng } from '../../src/util/rng.ts';

// Built by npm's postinstall (scripts/build-sgemm.mjs); CI builds it, so there these run. The addon
// itself, whatever TOOLTAX_NATIVE_GEMM says: that setting only keeps use-lite off it.
const native = sgemmAddon();
const addon = 'addon' in native ? native.addon : undefined;
if (!addon) console.warn(`native-gemm tests skipped: ${'reason' in native ? native.reason : ''}`);

/** C = A · B in float32, summed over k in order from 0 with the product rounded first: what XNNPACK's wasm kernels do. */
function reference(a: Float32Array, b: Float32Array, m: number, k: number, n: number): Float32Array {
  const c = new Float32Array(m * n);
  for (let i = 0; i < m; i++)
    for (let j = 0; j < n; j++) {
      let acc = 0;
      for (let p = 0; p < k; p++) acc = Math.fround(acc + Math.fround(a[i * k + p]! * b[p * n + j]!));
      c[i * n + j] = acc;
    }
  return c;
}

/** tfjs wasm's batched product (slow_batch_matmul): per output, in-order sums over blocks of 48 k's, added in block order. */
function blockedReference(a: Float32Array, b: Float32Array, batch: number, m: number, k: number, n: number, transposeB: boolean) {
  const c = new Float32Array(batch * m * n);
  for (let s = 0; s < batch; s++)
    for (let i = 0; i < m; i++)
      for (let j = 0; j < n; j++) {
        let out = 0;
        for (let k0 = 0; k0 < k; k0 += 48) {
          let sum = 0;
          for (let p = k0; p < Math.min(k0 + 48, k); p++) {
            const bv = transposeB ? b[s * n * k + j * k + p]! : b[s * k * n + p * n + j]!;
            sum = Math.fround(sum + Math.fround(a[s * m * k + i * k + p]! * bv));
          }
          out = Math.fround(out + sum);
        }
        c[s * m * n + i * n + j] = out;
      }
  return c;
}

// Every kernel this CPU runs (one per instruction set) must give the same bits.
describe.skipIf(!addon).each(addon?.kernels() ?? [])('native/sgemm, %s kernel', (kernel) => {
  const sgemm: SgemmAddon['sgemm'] = (...args) => addon!.sgemm(...args);
  const rng = new Rng(42, 'sgemm');
  let before = '';
  beforeAll(() => {
    before = addon!.kernel();
    addon!.useKernel(kernel);
  });
  afterAll(() => addon!.useKernel(before));

  it('says which kernel runs, and refuses one this CPU lacks', () => {
    expect(addon!.kernel()).toBe(kernel);
    expect(() => addon!.useKernel('no-such-kernel')).toThrow(RangeError);
    expect(addon!.kernel()).toBe(kernel);
  });

  it('gives the bits of the in-order float32 sum for every shape (kernel rows and panels, and their remainders)', () => {
    for (const [m, k, n] of [
      [1, 1, 1],
      [3, 5, 31],
      [8, 64, 32],
      [13, 257, 33],
      [70, 40, 100],
      [9, 3, 64],
    ] as const) {
      // Inputs spread over magnitudes and signs, so a reordered or fused sum would show in the last bits.
      const a = Float32Array.from({ length: m * k }, () => (rng.next() - 0.5) * 10 ** Math.floor(rng.next() * 6 - 3));
      const b = Float32Array.from({ length: k * n }, () => (rng.next() - 0.5) * 10 ** Math.floor(rng.next() * 6 - 3));
      // One buffer, the way the wasm heap holds the three matrices: a, then b, then c at a 4-byte offset.
      const heap = new Float32Array(1 + a.length + b.length + m * n);
      heap.set(a, 1);
      heap.set(b, 1 + a.length);
      sgemm(heap.buffer, 4, 4 * (1 + a.length), 4 * (1 + a.length + b.length), m, k, n);
      const got = heap.subarray(1 + a.length + b.length);
      const want = reference(a, b, m, k, n);
      expect(new Uint32Array(got.slice().buffer), `${m}×${k}·${k}×${n}`).toEqual(new Uint32Array(want.buffer));
    }
  });

  it("gives the bits of tfjs wasm's blocked batched product, with and without a transposed B", () => {
    for (const [batch, m, k, n] of [
      [3, 13, 64, 13], // the attention's q·kᵀ and its weights·v at 13 tokens, 64 per head: two blocks of k
      [2, 5, 128, 40],
      [1, 1, 1, 1],
      [4, 7, 48, 17],
    ] as const)
      for (const transposeB of [false, true]) {
        const a = Float32Array.from({ length: batch * m * k }, () => (rng.next() - 0.5) * 10 ** Math.floor(rng.next() * 6 - 3));
        const b = Float32Array.from({ length: batch * k * n }, () => (rng.next() - 0.5) * 10 ** Math.floor(rng.next() * 6 - 3));
        const heap = new Float32Array(a.length + b.length + batch * m * n);
        heap.set(a);
        heap.set(b, a.length);
        addon!.batchMatmul(heap.buffer, 0, 4 * a.length, 4 * (a.length + b.length), batch, m, k, n, transposeB ? 1 : 0);
        const want = blockedReference(a, b, batch, m, k, n, transposeB);
        expect(new Uint32Array(heap.slice(a.length + b.length).buffer), `${batch}×${m}×${k}×${n} ${transposeB}`).toEqual(
          new Uint32Array(want.buffer),
        );
      }
  });

  it('refuses matrices outside the buffer and arguments that are not offsets', () => {
    const heap = new ArrayBuffer(64);
    expect(() => sgemm(heap, 0, 16, 32, 2, 2, 5)).toThrow(RangeError);
    expect(() => sgemm(heap, 2, 16, 32, 2, 2, 2)).toThrow(RangeError);
    expect(() => sgemm(heap, -4, 16, 32, 2, 2, 2)).toThrow(TypeError);
    expect(() => (sgemm as (...args: unknown[]) => void)(heap, 0, 16)).toThrow(TypeError);
    expect(() => (sgemm as (...args: unknown[]) => void)(new Float32Array(16), 0, 16, 32, 2, 2, 2)).toThrow(TypeError);
    // Sizes whose byte count overflows 64 bits.
    expect(() => sgemm(heap, 0, 0, 0, 2 ** 31, 2 ** 31, 2 ** 31)).toThrow(RangeError);
    expect(() => addon!.batchMatmul(heap, 0, 16, 32, 2 ** 20, 2 ** 20, 2 ** 20, 1, 0)).toThrow(RangeError);
    expect(() => addon!.batchMatmul(heap, 0, 16, 32, 1, 1, 1, 1, 2 as never)).toThrow(RangeError);
  });
});

describe.skipIf(!addon)('use-lite on native/sgemm', () => {
  const previous = process.env.TOOLTAX_NATIVE_GEMM;
  beforeAll(() => {
    // This file's encoder starts on tfjs's own kernels; the test routes them itself.
    process.env.TOOLTAX_NATIVE_GEMM = '0';
  });
  afterAll(() => {
    if (previous === undefined) delete process.env.TOOLTAX_NATIVE_GEMM;
    else process.env.TOOLTAX_NATIVE_GEMM = previous;
  });

  it('embeds every text to the same bits as tfjs wasm, and the native kernel is what ran', async () => {
    const encoder = await createUseLiteEncoder();
    const texts = [
      'send a slack message',
      'create a new issue in the repository and assign it to the on-call engineer',
      'list pull requests',
      'Fetch the contents of a file from a GitHub repository; returns base64 content and sha. '.repeat(6),
      'list pull requests', // a batch of two of one length
    ];
    const tfjs = await encoder.embed(texts);
    let calls = 0;
    let batchedCalls = 0;
    const counting: Pick<SgemmAddon, 'sgemm' | 'batchMatmul'> = {
      sgemm: (...args) => (calls++, addon!.sgemm(...args)),
      batchMatmul: (...args) => (batchedCalls++, addon!.batchMatmul(...args)),
    };
    const restore = installNativeGemm((await import('@energetic-ai/core')) as unknown as KernelRegistry, counting);
    try {
      const routed = await encoder.embed(texts);
      expect(calls).toBeGreaterThan(0);
      expect(batchedCalls).toBeGreaterThan(0);
      routed.forEach((v, i) => expect(new Uint32Array(v.buffer), texts[i]).toEqual(new Uint32Array(tfjs[i]!.buffer)));
    } finally {
      restore();
    }
    calls = batchedCalls = 0;
    await encoder.embed(texts.slice(0, 1));
    expect(calls + batchedCalls).toBe(0);
  });
});
