import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { serializeToolDefinition, type McpTool } from '../../src/catalog/types.ts';
import { fieldSpans, PARTS, splitDefinition } from '../../src/budget/split.ts';
import { tokenCounter, TOKENIZERS } from '../../src/tokens/counter.ts';

const REAL = join(process.cwd(), 'catalogs', 'real');
const sumParts = (p: Record<string, number>) => Object.values(p).reduce((a, b) => a + b, 0);

describe('splitDefinition', () => {
  it.each(TOKENIZERS)('adds up exactly to the tool total on every real and synthetic definition (%s)', (name) => {
    const tokens = tokenCounter(name);
    const sources = [
      join(process.cwd(), 'catalogs', 'synthetic-120'),
      ...['filesystem', 'github', 'jira', 'slack', 'supabase', 'firecrawl'].map((s) => join(REAL, `${s}.json`)),
    ];
    let checked = 0;
    for (const src of sources) {
      for (const t of loadCatalog(src).tools) {
        const s = splitDefinition(t.definition, tokens);
        expect(s.total).toBe(tokens.count(serializeToolDefinition(t.definition)));
        expect(sumParts(s.parts)).toBe(s.total);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('puts each field where it belongs', () => {
    const tokens = tokenCounter();
    const def: McpTool = {
      name: 'n',
      title: 'A title',
      description: 'Does things.',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
      _meta: { x: 1 },
    };
    const s = splitDefinition(def, tokens);
    expect(s.otherFields).toEqual(['title', '_meta']);
    expect(s.parts.outputSchema).toBe(0);
    for (const p of ['name', 'description', 'inputSchema', 'annotations', 'other'] as const) expect(s.parts[p]).toBeGreaterThan(0);
    // a definition with only a much longer description gets the difference in `description`
    const longer = splitDefinition({ ...def, description: `${def.description} ${'More words here. '.repeat(20)}` }, tokens);
    expect(longer.parts.description - s.parts.description).toBe(longer.total - s.total);
    expect(longer.parts.inputSchema).toBe(s.parts.inputSchema);
  });

  it('spans cover the compact JSON field by field', () => {
    const def = { name: 'x', description: 'd', inputSchema: {}, skip: undefined } as unknown as McpTool;
    const { text, spans } = fieldSpans(def);
    expect(text).toBe(JSON.stringify(def));
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual(['"name":"x"', '"description":"d"', '"inputSchema":{}']);
  });

  it('stays exact on any text, multi-byte characters included (property)', () => {
    const tokens = tokenCounter();
    const text = fc.string({
      unit: fc.constantFrom('a', 'é', '中', '😀', ' ', '"', '\\', '\n', '},', ':', '1', 'Z', '\u0301', '\uFFFD'),
      maxLength: 40,
    });
    fc.assert(
      fc.property(text, text, fc.dictionary(fc.string({ maxLength: 6 }), text, { maxKeys: 3 }), (name, description, props) => {
        const def: McpTool = {
          name: name || 'x',
          description,
          inputSchema: { type: 'object', properties: Object.fromEntries(Object.entries(props).map(([k, v]) => [k, { description: v }])) },
          [description.slice(0, 3) || 'extra']: props,
        };
        const s = splitDefinition(def, tokens);
        expect(s.total).toBe(tokens.count(serializeToolDefinition(def)));
        expect(sumParts(s.parts)).toBe(s.total);
        expect(PARTS.every((p) => s.parts[p] >= 0)).toBe(true);
      }),
      { numRuns: 300, seed: 12 },
    );
  });
});
