import { describe, expect, it } from 'vitest';
import { hasRef, inlineRefs, resolvePointer } from '../../src/catalog/refs.ts';
import type { McpTool } from '../../src/catalog/types.ts';

const point = { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } } };

describe('inlineRefs', () => {
  it('returns undefined for a definition without $ref', () => {
    expect(inlineRefs({ name: 'a', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } })).toBeUndefined();
  });

  it('inlines internal $defs references and drops the $defs nothing points into', () => {
    const def: McpTool = {
      name: 'line',
      inputSchema: {
        type: 'object',
        $defs: { point },
        properties: { from: { $ref: '#/$defs/point' }, to: { $ref: '#/$defs/point', description: 'end' } },
      },
    };
    const before = JSON.stringify(def);
    const r = inlineRefs(def)!;
    expect(r.inlined.inputSchema).toEqual({ type: 'object', properties: { from: point, to: { ...point, description: 'end' } } });
    expect(r).toMatchObject({ refs: 2, resolved: 2, external: [], cyclic: [], broken: [], truncated: false });
    expect(JSON.stringify(def)).toBe(before); // input untouched
    expect(hasRef(r.inlined.inputSchema)).toBe(false);
  });

  it('resolves nested and legacy "definitions" references, and refs inside outputSchema against their own root', () => {
    const def: McpTool = {
      name: 'n',
      inputSchema: {
        type: 'object',
        definitions: { a: { $ref: '#/definitions/b' }, b: { type: 'string' } },
        properties: { v: { $ref: '#/definitions/a' } },
      },
      outputSchema: { type: 'object', $defs: { r: { type: 'integer' } }, properties: { n: { $ref: '#/$defs/r' } } },
    };
    const r = inlineRefs(def)!;
    expect(r.inlined.inputSchema).toEqual({ type: 'object', properties: { v: { type: 'string' } } });
    expect(r.inlined.outputSchema).toEqual({ type: 'object', properties: { n: { type: 'integer' } } });
  });

  it('never resolves a file or URL reference, keeps cyclic and broken ones, and keeps $defs they still need', () => {
    const def: McpTool = {
      name: 'n',
      inputSchema: {
        type: 'object',
        $defs: { tree: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/tree' } } } } },
        properties: {
          remote: { $ref: 'https://example.invalid/s.json' },
          file: { $ref: 'common.json#/x' },
          t: { $ref: '#/$defs/tree' },
          gone: { $ref: '#/$defs/missing' },
        },
      },
    };
    const r = inlineRefs(def)!;
    expect(r.external).toEqual(['https://example.invalid/s.json', 'common.json#/x']);
    expect(r.cyclic).toContain('#/$defs/tree');
    expect(r.broken).toEqual(['#/$defs/missing']);
    const props = (r.inlined.inputSchema as { properties: Record<string, unknown> }).properties;
    expect(props.remote).toEqual({ $ref: 'https://example.invalid/s.json' });
    expect(props.t).toEqual({ type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/tree' } } } });
    expect(r.inlined.inputSchema.$defs).toBeDefined(); // the cyclic pointer still needs it
  });

  it('stops a reference bomb instead of expanding it', () => {
    const $defs: Record<string, unknown> = { l0: { type: 'string' } };
    for (let i = 1; i <= 30; i++) $defs[`l${i}`] = { anyOf: [{ $ref: `#/$defs/l${i - 1}` }, { $ref: `#/$defs/l${i - 1}` }] };
    const r = inlineRefs({ name: 'bomb', inputSchema: { type: 'object', $defs, properties: { v: { $ref: '#/$defs/l30' } } } })!;
    expect(r.truncated).toBe(true);
  });
});

describe('resolvePointer', () => {
  const doc = { a: { 'b/c': [10, { 'd~e': 1 }] }, 'sp ace': 2 };
  it.each([
    ['#', doc],
    ['#/a/b~1c/0', 10],
    ['#/a/b~1c/1/d~0e', 1],
    ['#/sp%20ace', 2],
    ['#/a/missing', undefined],
    ['#anchor', undefined],
  ])('%s', (ref, expected) => {
    expect(resolvePointer(doc, ref)).toEqual(expected);
  });
});
