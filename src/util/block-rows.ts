/**
 * `count` zeroed arrays of `width` numbers each, views of one block. Thousands of small typed
 * arrays of their own (a score array per query, a vector per text), each with its own backing
 * store, left the allocator's arena larger after a run, where a block of 128 KB or
 * more is mapped on its own and returned whole once no view is kept.
 */
export function blockRows<T extends Float32Array | Float64Array>(type: { new (length: number): T }, count: number, width: number): T[] {
  return rowsOf(new type(count * width), width);
}

/** The rows of a block of `width` numbers each, as views (a block that came whole, e.g. from another thread). */
export function rowsOf<T extends Float32Array | Float64Array>(block: T, width: number): T[] {
  return Array.from({ length: width ? block.length / width : 0 }, (_, i) => block.subarray(i * width, (i + 1) * width) as T);
}
