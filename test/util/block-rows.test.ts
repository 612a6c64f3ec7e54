import { describe, expect, it } from 'vitest';
import { blockRows } from '../../src/util/block-rows.ts';

describe('blockRows', () => {
  it('gives disjoint zeroed rows of one block, of the type asked', () => {
    const rows = blockRows(Float64Array, 3, 4);
    expect(rows.map((r) => [r.constructor, r.length, [...r]])).toEqual(Array.from({ length: 3 }, () => [Float64Array, 4, [0, 0, 0, 0]]));
    rows[1]!.fill(7);
    expect(rows.map((r) => r[0])).toEqual([0, 7, 0]);
    expect(new Set(rows.map((r) => r.buffer)).size).toBe(1);
    expect(blockRows(Float32Array, 2, 512)[1]).toBeInstanceOf(Float32Array);
    expect(blockRows(Float32Array, 0, 512)).toEqual([]);
  });
});
