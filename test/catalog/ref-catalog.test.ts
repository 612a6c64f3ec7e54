import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { externalRefWarnings, refSizeTable, refUses } from '../../src/catalog/ref-table.ts';
import type { McpTool } from '../../src/catalog/types.ts';
import { dedupeTools, dereferenceDedup } from '../../src/pipelines/adol/dedup.ts';
import { TokenCounter } from '../../src/tokens/counter.ts';
import { makeTempDir } from '../helpers/temp.ts';

const PYDANTIC = join('test', 'fixtures', 'pydantic-catalog', 'shop.json');
const tokens = new TokenCounter();

const LONG =
  'The account that owns the repository: a user login or an organisation name, as it appears in the repository URL after the host.';

/** A catalog whose schemas refer to a real local file holding a marker, a URL, themselves and nothing. */
function hostileRefCatalog(): { file: string; secret: string } {
  const dir = makeTempDir();
  const secret = 'SECRET-MARKER-7f3a';
  const local = join(dir, 'local.json');
  writeFileSync(local, JSON.stringify({ type: 'string', description: secret }));
  const props = {
    file: { $ref: local },
    fileUri: { $ref: `file://${local}` },
    url: { $ref: 'http://127.0.0.1:9/schema.json' },
    self: { $ref: '#' },
    loop: { $ref: '#/$defs/Loop' },
    missing: { $ref: '#/$defs/Nope' },
    badPointer: { $ref: '#/properties/%E0%A4%A' },
    anchor: { $ref: '#anchor' },
  };
  const tool = (name: string): McpTool => ({
    name,
    description: `${name} with hostile references`,
    inputSchema: {
      type: 'object',
      $defs: { Loop: { type: 'object', properties: { next: { $ref: '#/$defs/Loop' } } } },
      properties: { ...props, owner: { type: 'string', description: LONG } },
    },
  });
  const file = join(dir, 'hostile.json');
  writeFileSync(file, JSON.stringify({ server: 'evil', tools: [tool('a'), tool('b'), tool('c')] }));
  return { file, secret };
}

describe('catalogs that use $ref', () => {
  it('measures the Pydantic/FastMCP shape ($defs + #/$defs/...) wire and inlined', () => {
    const catalog = loadCatalog(PYDANTIC);
    const uses = refUses(catalog);
    expect(uses).toHaveLength(5);
    expect(externalRefWarnings(uses)).toEqual([]);
    const table = refSizeTable(catalog, tokens, uses)!;
    for (const row of table.rows) {
      expect(row.refs).toBe(row.resolved);
      expect(row.left).toBe('—');
      expect(row.inlined).toBeGreaterThan(0);
    }
    // quote_shipping uses Address twice: inlining repeats it, so the inlined form is larger.
    const quote = table.rows.find((r) => r.tool === 'shop/quote_shipping')!;
    expect(quote.inlined as number).toBeGreaterThan(quote.wire as number);
  });

  it('treats files, URLs, cycles, "#" and dangling pointers as data: never read, never a crash, a warning naming the tool', () => {
    const { file, secret } = hostileRefCatalog();
    const catalog = loadCatalog(file);
    const uses = refUses(catalog);
    const warnings = externalRefWarnings(uses);
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/^warning: tool evil\/a refers to .*local\.json.*http:\/\/127\.0\.0\.1:9\/schema\.json/);
    const row = refSizeTable(catalog, tokens, uses)!.rows[0]!;
    expect(row.left).toMatch(/external .*local\.json/);
    expect(row.left).toMatch(/cyclic #\/\$defs\/Loop/);
    expect(row.left).toMatch(/cyclic #(;|$)/);
    expect(row.left).toMatch(/dangling #\/\$defs\/Nope/);
    expect(JSON.stringify(uses.map((u) => u.inlining?.inlined))).not.toContain(secret);
  });

  it.each(['internal', 'external'] as const)('ADOL %s dedup round trip is lossless and reads no file', async (variant) => {
    const { file, secret } = hostileRefCatalog();
    for (const defs of [loadCatalog(PYDANTIC), loadCatalog(file)].map((c) => c.tools.map((t) => t.definition))) {
      const result = dedupeTools(defs, variant, tokens);
      expect(result.defs.length).toBeGreaterThan(0);
      const back = await dereferenceDedup(result);
      expect(back).toEqual(defs);
      expect(JSON.stringify(back)).toBe(JSON.stringify(defs)); // key order too
      expect(JSON.stringify(back)).not.toContain(secret);
    }
  });

  it('never gives a hoisted definition the pointer a catalog already uses', () => {
    const prop = { type: 'string', description: LONG };
    const defs: McpTool[] = ['a', 'b', 'c', 'd'].map((name) => ({
      name,
      inputSchema: { type: 'object', properties: { street: prop, other: { $ref: '#/$defs/street' } } },
    }));
    const result = dedupeTools(defs, 'internal', tokens);
    expect(result.defs.map((d) => d.name)).not.toContain('street');
    expect(result.defs.length).toBeGreaterThan(0);
  });
});
