import { describe, expect, it } from 'vitest';
import { installHeapViewSlice } from '../../src/embed/wasm-slice.ts';
import { Rng } from '../../src/util/rng.ts';

// tfjs as use-lite runs it: the bundled tfjs 4.5 on its wasm backend.
type Tensor = { dataSync(): ArrayLike<number>; shape: number[]; dtype: string };
type Tf = Parameters<typeof installHeapViewSlice>[0] & {
  ready(): Promise<void>;
  getBackend(): string;
  tensor(values: number[], shape: number[], dtype?: string): Tensor;
  slice(x: Tensor, begin: number[], size: number[]): Tensor;
  split(x: Tensor, sizes: number[], axis: number): Tensor[];
};

describe('slices read through a view of the wasm heap', () => {
  it('give the same tensors as tfjs wasm, for every kind of slice and split', async () => {
    const tf = (await import('@energetic-ai/core')) as unknown as Tf;
    await tf.ready();
    expect(tf.getBackend()).toBe('wasm');
    const rng = new Rng(42, 'wasm-slice');
    const values = (n: number) => Array.from({ length: n }, () => rng.next() * 200 - 100);
    const x3 = tf.tensor(values(4 * 5 * 6), [4, 5, 6]);
    const x4 = tf.tensor(values(2 * 3 * 4 * 5), [2, 3, 4, 5]);
    const ints = tf.tensor(values(6 * 7).map(Math.round), [6, 7], 'int32');
    const flat = tf.tensor(values(10), [10]);
    const cases = () => [
      tf.slice(x3, [1, 0, 0], [2, 5, 6]), // contiguous
      tf.slice(x3, [1, 2, 3], [3, 2, 3]), // strided in every axis
      tf.slice(x4, [1, 1, 0, 2], [1, 2, 4, 3]),
      tf.slice(ints, [2, 1], [3, 5]),
      tf.slice(flat, [3], [4]),
      tf.slice(x3, [0, 0, 0], [0, 5, 6]), // empty
      ...tf.split(x3, [2, 1, 3], 2), // q, k, v along the last axis, as the attention does
      ...tf.split(x4, [1, 2], 1),
      ...tf.split(ints, [4, 2], 0),
    ];
    const dump = (ts: Tensor[]) => ts.map((t) => ({ shape: t.shape, dtype: t.dtype, values: Array.from(t.dataSync()) }));
    const before = dump(cases());
    const restore = installHeapViewSlice(tf);
    let after;
    try {
      after = dump(cases());
    } finally {
      restore();
    }
    expect(after).toEqual(before);
    expect(before[1]!.values).toHaveLength(3 * 2 * 3);
  });
});
