import { sgemmAddon, type SgemmAddon } from '../util/sgemm-addon.ts';
import {
  heapOffset,
  overrideWasmKernels,
  type KernelArgs,
  type KernelRegistry,
  type TensorInfo,
  type WasmBackend,
} from './tfjs-wasm-kernels.ts';

/** Environment variable: 0 keeps use-lite on tfjs's own wasm kernels (for comparison; the vectors are the same). */
const NATIVE_GEMM_ENV = 'TOOLTAX_NATIVE_GEMM';

/** The built addon, or why use-lite runs on tfjs's wasm kernels (one line, with how to build it). */
export function nativeGemm(env: NodeJS.ProcessEnv = process.env): { addon: SgemmAddon } | { reason: string } {
  if (env[NATIVE_GEMM_ENV] === '0') return { reason: `${NATIVE_GEMM_ENV}=0` };
  return sgemmAddon();
}

/** One line for the log: which kernels use-lite's matrix products run on. */
export function useLiteKernelNote(): string {
  const native = nativeGemm();
  return 'addon' in native
    ? 'use-lite matrix products: native/sgemm (same vectors as tfjs wasm, faster)'
    : `use-lite matrix products: tfjs wasm kernels (${native.reason})`;
}

const size = (dims: readonly number[]) => dims.reduce((a, b) => a * b, 1);
const allOnes = (v: unknown) => v === undefined || v === 1 || (Array.isArray(v) && v.every((d) => d === 1));

/**
 * Route tfjs wasm's BatchMatMul and Conv2D, where they are one plain matrix product (a single
 * batch without transposes; a 1×1 convolution with unit strides), to the addon; every other
 * case goes to the addon's batched product, in the order of tfjs's own loop for it, or
 * (shapes it does not cover) stays on the original kernel. Products are ~85% of use-lite's
 * time, and the addon sums in the order of the kernels it replaces, so every vector keeps its
 * bits. Returns a function that puts the original kernels back.
 */
export function installNativeGemm(tf: KernelRegistry, addon: Pick<SgemmAddon, 'sgemm' | 'batchMatmul'>): () => void {
  const heap = (backend: WasmBackend) => backend.wasm.HEAPU8.buffer as ArrayBuffer;
  // The other products (the attention's, per head): tfjs runs them outside XNNPACK in blocks of
  // k (its slow_batch_matmul); the addon sums in the same order. Batch dimensions must match.
  const batched = (a: TensorInfo, b: TensorInfo, backend: WasmBackend, attrs: Record<string, unknown>) => {
    const outer = a.shape.slice(0, -2);
    if (a.shape.length < 3 || b.shape.length !== a.shape.length || b.shape.slice(0, -2).some((d, i) => d !== outer[i])) return undefined;
    const [m, k] = a.shape.slice(-2) as [number, number];
    const transposeB = attrs.transposeB ? 1 : 0;
    const [kb, n] = (transposeB ? b.shape.slice(-2).reverse() : b.shape.slice(-2)) as [number, number];
    if (kb !== k || size(outer) === 0) return undefined;
    const out = backend.makeOutput([...outer, m, n], 'float32');
    // The heap is read after makeOutput, which may grow (and so replace) it.
    addon.batchMatmul(
      heap(backend),
      heapOffset(backend, a),
      heapOffset(backend, b),
      heapOffset(backend, out),
      size(outer),
      m,
      k,
      n,
      transposeB,
    );
    return out;
  };
  return overrideWasmKernels(tf, {
    BatchMatMul: ({ inputs: { a, b }, backend, attrs }: KernelArgs) => {
      if (!a || !b || a.dtype !== 'float32' || b.dtype !== 'float32' || attrs.transposeA) return undefined;
      if (size(a.shape.slice(0, -2)) !== 1 || size(b.shape.slice(0, -2)) !== 1 || attrs.transposeB) return batched(a, b, backend, attrs);
      const [m, k] = a.shape.slice(-2) as [number, number];
      const [kb, n] = b.shape.slice(-2) as [number, number];
      if (kb !== k) return undefined;
      const out = backend.makeOutput([m, n], 'float32');
      addon.sgemm(heap(backend), heapOffset(backend, a), heapOffset(backend, b), heapOffset(backend, out), m, k, n);
      // tfjs's shape: the broadcast batch dimensions (all 1 here), then m × n.
      out.shape = [...new Array<number>(Math.max(a.shape.length, b.shape.length) - 2).fill(1), m, n];
      return out;
    },
    Conv2D: ({ inputs: { x, filter }, backend, attrs }: KernelArgs) => {
      if (!x || !filter || x.dtype !== 'float32' || filter.dtype !== 'float32' || x.shape.length !== 4) return undefined;
      const [fh, fw, cin, cout] = filter.shape as [number, number, number, number];
      if (fh !== 1 || fw !== 1 || x.shape[3] !== cin || !allOnes(attrs.strides) || !allOnes(attrs.dilations)) return undefined;
      if ((attrs.dataFormat ?? 'NHWC') !== 'NHWC' || (attrs.pad !== 'valid' && attrs.pad !== 'same')) return undefined;
      const [batch, height, width] = x.shape as [number, number, number];
      const out = backend.makeOutput([batch, height, width, cout], 'float32');
      addon.sgemm(
        heap(backend),
        heapOffset(backend, x),
        heapOffset(backend, filter),
        heapOffset(backend, out),
        batch * height * width,
        cin,
        cout,
      );
      return out;
    },
  });
}
