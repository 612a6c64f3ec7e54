import { describe, expect, it } from 'vitest';
import { ScratchArray } from '../../src/util/scratch-array.ts';

describe('ScratchArray', () => {
  it('reuses one array, grows it when asked for more, and zeroes the part asked for', () => {
    const s = new ScratchArray(Float64Array);
    const a = s.atLeast(4).fill(7);
    expect(s.atLeast(3)).toBe(a);
    expect([...s.zeroed(3)]).toEqual([0, 0, 0, 7]);
    const grown = s.atLeast(10);
    expect(grown).not.toBe(a);
    expect(grown).toBeInstanceOf(Float64Array);
    expect(grown.length).toBe(10);
    expect(new ScratchArray(Uint32Array).zeroed(2)).toBeInstanceOf(Uint32Array);
  });
});
