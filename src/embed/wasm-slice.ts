import { overrideWasmKernels, type KernelArgs, type KernelRegistry, type TensorInfo, type WasmBackend } from './tfjs-wasm-kernels.ts';

/** The slice helpers of tfjs-core (exported by @energetic-ai/core). */
interface SliceUtil {
  slice_util: {
    parseSliceParams(x: TensorInfo, begin: number | number[], size?: number | number[]): [number[], number[]];
    isSliceContinous(shape: number[], begin: number[], size: number[]): boolean;
    computeFlatOffset(begin: number[], strides: number[]): number;
  };
  util: { computeStrides(shape: number[]): number[]; parseAxisParam(axis: number | number[], shape: number[]): number[] };
  backend_util: { prepareSplitSize(x: TensorInfo, numOrSizeSplits: number | number[], axis: number): number[] };
}

/**
 * tfjs wasm's Slice (and SplitV, which slices once per part) copies its whole input out of the
 * wasm heap into a new ArrayBuffer before copying the slice back in: SplitV of the attention's
 * q, k, v copies the tensor three times, and each copy is fresh memory (an mmap and its page
 * faults under the bench's low glibc mmap threshold). These read the input through a view of the
 * heap instead; the bytes written are the same. Strings go to the original kernels.
 */
export function installHeapViewSlice(tf: KernelRegistry & SliceUtil): () => void {
  const sliceFromHeap = (backend: WasmBackend, x: TensorInfo, begin: number[], size: number[]): TensorInfo => {
    // The output first: allocating may grow (and so detach) the heap, which views must not see.
    const out = backend.makeOutput(size, x.dtype);
    const from = backend.typedArrayFromHeap(x);
    const into = backend.typedArrayFromHeap(out);
    const strides = tf.util.computeStrides(x.shape);
    if (into.length === 0) return out;
    if (tf.slice_util.isSliceContinous(x.shape, begin, size)) {
      const start = tf.slice_util.computeFlatOffset(begin, strides);
      into.set(from.subarray(start, start + into.length));
      return out;
    }
    // Row by row along the last axis, the other indices counting up like an odometer.
    const rank = x.shape.length;
    const run = size[rank - 1]!;
    const index = new Array<number>(rank - 1).fill(0);
    for (let o = 0; o < into.length; o += run) {
      let start = begin[rank - 1]!;
      for (let d = 0; d < rank - 1; d++) start += (begin[d]! + index[d]!) * strides[d]!;
      into.set(from.subarray(start, start + run), o);
      for (let d = rank - 2; d >= 0 && ++index[d]! === size[d]; d--) index[d] = 0;
    }
    return out;
  };
  return overrideWasmKernels(tf, {
    Slice: ({ inputs: { x }, backend, attrs }: KernelArgs) => {
      if (!x || x.dtype === 'string') return undefined;
      const [begin, size] = tf.slice_util.parseSliceParams(x, attrs.begin as number[], attrs.size as number[]);
      return sliceFromHeap(backend, x, begin, size);
    },
    SplitV: ({ inputs: { x }, backend, attrs }: KernelArgs) => {
      if (!x || x.dtype === 'string') return undefined;
      const axis = tf.util.parseAxisParam(attrs.axis as number, x.shape)[0]!;
      const begin = new Array<number>(x.shape.length).fill(0);
      return tf.backend_util.prepareSplitSize(x, attrs.numOrSizeSplits as number[], axis).map((part) => {
        const size = [...x.shape];
        size[axis] = part;
        const out = sliceFromHeap(backend, x, [...begin], size);
        begin[axis]! += part;
        return out;
      });
    },
  });
}
