import { makeTempDir } from '../helpers/temp.ts';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { serializeToolDefinition } from '../../src/catalog/types.ts';
import { countTokens } from '../../src/tokens/counter.ts';
import { InputError } from '../../src/util/input-error.ts';

const REAL = join(process.cwd(), 'catalogs', 'real');

function dump(content: unknown, name = 'dump.json'): string {
  const dir = makeTempDir('tooltax-load-');
  const file = join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  description: `${name} things`,
  inputSchema: { type: 'object', properties: {} },
  ...extra,
});

describe('loadCatalog', () => {
  it.each([
    ['an array of tools', [tool('a'), tool('b')], ['dump']],
    ['{ tools }', { server: 'srv', tools: [tool('a'), tool('b')] }, ['srv']],
    ['a JSON-RPC tools/list response', { jsonrpc: '2.0', id: 1, result: { tools: [tool('a'), tool('b')] } }, ['dump']],
    [
      'several servers',
      {
        servers: [
          { server: 'x', tools: [tool('a')] },
          { name: 'y', tools: [tool('a')] },
        ],
      },
      ['x', 'y'],
    ],
  ])('reads %s', (_, content, servers) => {
    const c = loadCatalog(dump(content));
    expect(c.servers).toEqual(servers);
    expect(c.tools).toHaveLength(2);
    expect(c.tools.every((t) => t.summarySource === 'derived' && t.summary.length > 0)).toBe(true);
  });

  it('keeps unknown fields on tools', () => {
    const c = loadCatalog(dump([tool('a', { _meta: { icon: 'x' }, vendorFlag: true })]));
    expect(c.tools[0]!.definition).toMatchObject({ _meta: { icon: 'x' }, vendorFlag: true });
  });

  it.each([
    ['broken JSON', '{"tools": [', '(root)', /valid JSON/],
    ['a scalar', '42', '$', /array of tools/],
    ['tools not an array', { tools: { a: 1 } }, '$.tools', /an array of tools/],
    ['a tool without a name', { tools: [tool('a'), { inputSchema: {} }] }, '$.tools[1].name', /non-empty string/],
    ['a tool without inputSchema', { tools: [{ name: 'a' }] }, '$.tools[0].inputSchema', /JSON Schema object/],
    ['a description that is not a string', { tools: [tool('a', { description: 3 })] }, '$.tools[0].description', /a string/],
    ['a duplicate name', { tools: [tool('a'), tool('a')] }, '$.tools[1].name', /unique within server/],
    ['an object without tools', { items: [] }, '$', /"tools"/],
  ])('rejects %s with the file, JSON path and what was expected', (_, content, path, expected) => {
    const file = dump(content);
    let err: unknown;
    try {
      loadCatalog(file);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    const e = err as InputError;
    expect(e.file).toBe(file);
    expect(e.path).toBe(path === '(root)' ? '' : path);
    expect(e.message).toContain(file);
    expect(e.message).toMatch(expected);
  });

  it('names a missing path', () => {
    expect(() => loadCatalog('/nonexistent/tools.json')).toThrow(/nonexistent\/tools.json.*nothing at \/nonexistent\/tools.json/);
  });

  it('merges catalog.meta.json and validates it', () => {
    const dir = makeTempDir('tooltax-meta-');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'srv.json'), JSON.stringify({ server: 'srv', tools: [tool('a')] }));
    writeFileSync(
      join(dir, 'catalog.meta.json'),
      JSON.stringify({
        tools: { 'srv/a': { summary: 'Do a', tags: ['x'], preconditions: [{ kind: 'requires_auth', scope: 'srv:read' }] } },
      }),
    );
    const t = loadCatalog(dir).tools[0]!;
    expect(t).toMatchObject({
      summary: 'Do a',
      summarySource: 'authored',
      tags: ['x'],
      preconditions: [{ kind: 'requires_auth', scope: 'srv:read' }],
    });
    writeFileSync(join(dir, 'catalog.meta.json'), JSON.stringify({ tools: { 'srv/a': { preconditions: [{ kind: 'when_moon_full' }] } } }));
    expect(() => loadCatalog(dir)).toThrow(/catalog.meta.json: at \$.tools\["srv\/a"\].preconditions\[0\]/);
  });

  it('reads the real MCP dumps with the token totals their README states', () => {
    const expected: Record<string, [number, number]> = {
      'github.json': [117, 26_914],
      'filesystem.json': [14, 2_756],
      'supabase.json': [31, 4_201],
      'slack.json': [16, 4_010],
      'firecrawl.json': [26, 8_606],
      'jira.json': [63, 17_375],
    };
    for (const [file, [tools, tokens]] of Object.entries(expected)) {
      const c = loadCatalog(join(REAL, file));
      expect(c.tools, file).toHaveLength(tools);
      expect(
        c.tools.reduce((s, t) => s + countTokens(serializeToolDefinition(t.definition)), 0),
        file,
      ).toBe(tokens);
    }
    // Tool names repeat across servers; ids stay unique.
    const all = loadCatalog(Object.keys(expected).map((f) => join(REAL, f)));
    expect(new Set(all.tools.map((t) => t.id)).size).toBe(all.tools.length);
    // The folder holds the six dumps alone (extra/, results/ and stats/ are folders of their own).
    const folder = loadCatalog(REAL);
    expect(new Set(folder.tools.map((t) => t.id))).toEqual(new Set(all.tools.map((t) => t.id)));
  });
});
