import { describe, expect, it } from 'vitest';
import { distinctIds, sameElements } from '../../src/measure/distinct-ids.ts';

describe('distinctIds', () => {
  it('is [...new Set(ids)], the same array again for the same unchanged list', () => {
    const ids = ['a', 'b', 'a', 'c'];
    const first = distinctIds(ids);
    expect(first).toEqual(['a', 'b', 'c']);
    expect(distinctIds(ids)).toBe(first);
  });

  it('deduplicates again a list changed in place (with or without duplicates)', () => {
    const ids = ['a', 'b'];
    expect(distinctIds(ids)).toEqual(['a', 'b']);
    ids[1] = 'a';
    expect(distinctIds(ids)).toEqual(['a']);
    ids.push('z');
    expect(distinctIds(ids)).toEqual(['a', 'z']);
    expect(distinctIds([])).toEqual([]);
  });

  it('is [...new Set(ids)] for lists short and long, with repeats near and far apart', () => {
    for (const n of [1, 2, 31, 32, 33, 120])
      for (const repeatAt of [-1, 1, n - 1]) {
        const ids = Array.from({ length: n }, (_, i) => `tool-${i}`);
        if (repeatAt > 0 && repeatAt < n) ids[repeatAt] = 'tool-0';
        expect(distinctIds(ids), `${n} ids, repeat at ${repeatAt}`).toEqual([...new Set(ids)]);
      }
  });

  it('sameElements compares in order', () => {
    expect(sameElements(['a', 'b'], ['a', 'b'])).toBe(true);
    expect(sameElements(['a', 'b'], ['b', 'a'])).toBe(false);
    expect(sameElements(['a'], ['a', 'a'])).toBe(false);
  });
});
