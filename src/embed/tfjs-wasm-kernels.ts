// The parts of tfjs 4.5's wasm backend (bundled in @energetic-ai/core) that use-lite's kernel
// replacements touch, and the one way they replace a kernel.

export interface TensorInfo {
  dataId: object;
  shape: number[];
  dtype: string;
}

export interface WasmBackend {
  wasm: { HEAPU8: Uint8Array };
  dataIdMap: { get(id: object): { memoryOffset: number } };
  makeOutput(shape: number[], dtype: string): TensorInfo;
  typedArrayFromHeap(t: TensorInfo): Float32Array | Int32Array | Uint8Array;
}

export interface KernelArgs {
  inputs: Partial<Record<string, TensorInfo>>;
  backend: WasmBackend;
  attrs: Record<string, unknown>;
}

/** A kernel's output: one tensor, or several (SplitV). */
type KernelOutput = TensorInfo | TensorInfo[];

interface KernelConfig {
  kernelName: string;
  backendName: string;
  kernelFunc: (args: KernelArgs) => KernelOutput;
}

export interface KernelRegistry {
  getKernel(name: string, backend: string): KernelConfig | undefined;
  unregisterKernel(name: string, backend: string): void;
  registerKernel(config: KernelConfig): void;
}

/** The byte offset of a tensor's data in the wasm heap. */
export function heapOffset(backend: WasmBackend, t: TensorInfo): number {
  return backend.dataIdMap.get(t.dataId).memoryOffset;
}

/**
 * Replace tfjs wasm's kernels by name: each replacement answers the cases it covers and
 * undefined for the rest, which go to the original kernel (its setup, already run, is kept).
 * Returns a function that puts the originals back.
 */
export function overrideWasmKernels(
  tf: KernelRegistry,
  replacements: Record<string, (args: KernelArgs) => KernelOutput | undefined>,
): () => void {
  const originals = Object.entries(replacements).map(([name, replacement]) => {
    const original = tf.getKernel(name, 'wasm');
    if (!original) throw new Error(`tfjs wasm has no ${name} kernel`);
    tf.unregisterKernel(name, 'wasm');
    tf.registerKernel({ ...original, kernelFunc: (args) => replacement(args) ?? original.kernelFunc(args) });
    return original;
  });
  return () => {
    for (const original of originals.reverse()) {
      tf.unregisterKernel(original.kernelName, 'wasm');
      tf.registerKernel(original);
    }
  };
}
