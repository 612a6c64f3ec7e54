/**
 * `count` zeroed score arrays of `width` numbers each, views of one block. A retriever scores a
 * batch of queries into them: thousands of small arrays of their own (one per query, each with
 * its own backing store) left the allocator's arena tens of MB larger after a cold run, where
 * a block of 128 KB or more is mapped on its own and returned whole once no view is kept.
 */
export function scoreRows(count: number, width: number): Float64Array[] {
  const block = new Float64Array(count * width);
  return Array.from({ length: count }, (_, i) => block.subarray(i * width, (i + 1) * width));
}
