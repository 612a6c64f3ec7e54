/**
 * `count` zeroed arrays of `width` numbers each, views of one block. Thousands of small typed
 * arrays of their own (a score array per query, a vector per text), each with its own backing
 * store, left the allocator's arena tens of MB larger after a run, where a block of 128 KB or
 * more is mapped on its own and returned whole once no view is kept.
 */
export function blockRows<T extends Float32Array | Float64Array>(type: { new (length: number): T }, count: number, width: number): T[] {
  const block = new type(count * width);
  return Array.from({ length: count }, (_, i) => block.subarray(i * width, (i + 1) * width) as T);
}
