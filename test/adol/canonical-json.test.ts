import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/pipelines/adol/json.ts';

/** The definition: JSON.stringify of a copy whose keys are inserted in sorted order (as own properties, so `__proto__` stays a key). */
function reference(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (typeof v !== 'object' || v === null) return v;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort())
      Object.defineProperty(out, k, {
        value: sorted((v as Record<string, unknown>)[k]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  };
  return JSON.stringify(sorted(value));
}

describe('canonicalJson', () => {
  it('equals JSON.stringify of a key-sorted copy on any JSON value, with and without the memo', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(reference(value));
        expect(canonicalJson(value, new Map())).toBe(reference(value));
      }),
      { seed: 42, numRuns: 500 },
    );
  });

  it('orders array-index keys first and numerically, as JSON.stringify does, and keeps a __proto__ key', () => {
    const value = JSON.parse('{"b":1,"10":2,"a":{"__proto__":{"x":1},"2":3},"9":4}') as unknown;
    expect(canonicalJson(value)).toBe('{"9":4,"10":2,"a":{"2":3,"__proto__":{"x":1}},"b":1}');
    expect(canonicalJson(value)).toBe(reference(value));
  });

  it('serves a sub-value from the memo once its parent was serialised', () => {
    const child = { type: 'string', description: 'Repository owner' };
    const parent = { properties: { owner: child } };
    const memo = new Map<object, string>();
    canonicalJson(parent, memo);
    expect(memo.get(child)).toBe('{"description":"Repository owner","type":"string"}');
  });
});
