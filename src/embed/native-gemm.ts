import { SGEMM_ADDON_FILE, sgemmAddon, type SgemmAddon } from '../util/sgemm-addon.ts';
import {
  cachedChoice,
  describeChoice,
  kernelChoiceDir,
  machineKey,
  saveChoice,
  timeKernels,
  WASM_KERNEL,
  type KernelChoice,
} from './kernel-choice.ts';
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
/** Environment variable: names the kernel to run (one of the addon's, or `wasm`) instead of timing them. */
const GEMM_KERNEL_ENV = 'TOOLTAX_GEMM_KERNEL';

/** The built addon, or why use-lite runs on tfjs's wasm kernels (one line, with how to build it). */
function nativeGemm(env: NodeJS.ProcessEnv = process.env): { addon: SgemmAddon } | { reason: string } {
  if (env[NATIVE_GEMM_ENV] === '0') return { reason: `${NATIVE_GEMM_ENV}=0` };
  if (env[GEMM_KERNEL_ENV] === WASM_KERNEL) return { reason: `${GEMM_KERNEL_ENV}=${WASM_KERNEL}` };
  return sgemmAddon();
}

/**
 * A fixed calibration batch: texts of one token length, as the encoder batches them, about as
 * long as a tool definition, where a cold run spends most of its embedding time.
 */
const CALIBRATION_TEXTS = Array.from(
  { length: 2 },
  (_, i) =>
    `tool ${i}: lists the open pull requests of a repository. Arguments: owner (string, required), the account that owns ` +
    'the repository; repo (string, required), its name; state (open, closed or all); head and base branch filters; ' +
    'sort by created, updated or popularity; direction ascending or descending; per_page up to 100; page number.',
);

/**
 * Routes use-lite's matrix products to the fastest of the native kernels and tfjs's own wasm
 * kernels on this machine (./kernel-choice.ts): timed on the calibration batch the first time,
 * then read from the cache folder. `embed` runs the model on a batch. A setting may name the
 * kernel instead; without the addon the wasm kernels run.
 */
export async function routeFastestGemm(
  tf: KernelRegistry,
  embed: (texts: string[]) => Promise<unknown>,
  cacheDir: string,
  env: NodeJS.ProcessEnv = process.env,
  native = nativeGemm(env),
): Promise<KernelChoice> {
  if (!('addon' in native)) return { kernel: WASM_KERNEL, how: 'only', reason: native.reason, timings: [] };
  const { addon } = native;
  const kernels = addon.kernels();
  const route = (name: string) => {
    if (name === WASM_KERNEL) return () => {};
    addon.useKernel(name);
    return installNativeGemm(tf, addon);
  };
  const forced = env[GEMM_KERNEL_ENV];
  if (forced) {
    if (!kernels.includes(forced)) throw new Error(`${GEMM_KERNEL_ENV}=${forced}: this CPU runs ${[...kernels, WASM_KERNEL].join(', ')}`);
    route(forced);
    return { kernel: forced, how: 'forced', reason: `${GEMM_KERNEL_ENV}=${forced}`, timings: [] };
  }
  const key = machineKey(kernels, SGEMM_ADDON_FILE);
  const cached = cachedChoice(cacheDir, key);
  if (cached && [...kernels, WASM_KERNEL].includes(cached.kernel)) {
    route(cached.kernel);
    return cached;
  }
  const candidates = [...kernels, WASM_KERNEL].map((name) => ({ name, install: () => route(name) }));
  const timings = await timeKernels(
    candidates,
    () => embed(CALIBRATION_TEXTS),
    CALIBRATION_TEXTS.length,
    () => addon.threadCpuSeconds(),
  );
  const choice: KernelChoice = { kernel: timings[0]!.name, how: 'measured', timings };
  route(choice.kernel);
  saveChoice(cacheDir, key, choice);
  return choice;
}

/**
 * One line for the log: which kernel use-lite's matrix products ran on in this process's
 * encoders, or would run on (as timed on this CPU before), and why.
 */
export function useLiteKernelNote(env: NodeJS.ProcessEnv = process.env): string {
  const native = nativeGemm(env);
  if (!('addon' in native)) return `use-lite matrix products: tfjs wasm kernels (${native.reason})`;
  const forced = env[GEMM_KERNEL_ENV];
  if (forced)
    return `use-lite matrix products: ${describeChoice({ kernel: forced, how: 'forced', reason: `${GEMM_KERNEL_ENV}=${forced}`, timings: [] })}`;
  const cached = cachedChoice(kernelChoiceDir(env), machineKey(native.addon.kernels(), SGEMM_ADDON_FILE));
  return cached
    ? `use-lite matrix products: ${describeChoice(cached)}`
    : 'use-lite matrix products: not timed on this CPU yet (timed when the encoder first loads)';
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
