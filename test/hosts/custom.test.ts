import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { anthropicProfile } from '../../src/hosts/anthropic.ts';
import { customProfile, readCustomHostFile } from '../../src/hosts/custom.ts';
import { HostMeasure } from '../../src/hosts/measure.ts';
import { DEFAULT_LIMITS } from '../../src/util/limits.ts';
import { cliInProcess } from '../helpers/cli-in-process.ts';

const tmp = mkdtempSync(join(tmpdir(), 'tooltax-custom-host-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;
function file(content: string): string {
  const f = join(tmp, `host-${n++}.json`);
  writeFileSync(f, content);
  return f;
}
const json = (v: unknown) => file(JSON.stringify(v));
const ANTHROPIC_LIKE = {
  name: 'anthropic-like',
  fields: ['name', 'description', 'inputSchema'],
  rename: { inputSchema: 'input_schema' },
  perRequestTokens: 496,
  source: 'Claude Docs, tool use system prompt, Claude Sonnet 4.5, auto',
};

describe('custom host file', () => {
  it('described as the anthropic profile renders, it counts what that profile counts', () => {
    const spec = readCustomHostFile(json(ANTHROPIC_LIKE));
    const custom = new HostMeasure(customProfile(spec, 'cl100k_base'));
    const anthropic = new HostMeasure(anthropicProfile('cl100k_base'));
    const defs = loadCatalog('catalogs/real/github.json').tools.map((t) => t.definition);
    expect(custom.listTokens(defs)).toBe(anthropic.listTokens(defs));
    expect(custom.profile.sends).toEqual(['name', 'description', 'inputSchema']);
  });

  it('adds its fixed tokens per tool, takes its own tokenizer, and keeps a field named __proto__ as data', () => {
    const spec = readCustomHostFile(json({ name: 'g', fields: ['__proto__', 'name'], perToolTokens: 5, tokenizer: 'o200k_base' }));
    const host = new HostMeasure(customProfile(spec, 'cl100k_base'));
    expect(host.profile.tokenizer).toBe('o200k_base');
    const def = JSON.parse('{"name":"x","inputSchema":{"type":"object"},"__proto__":{"polluted":true}}');
    expect(host.profile.render!([def])).toBe('{"__proto__":{"polluted":true},"name":"x"}');
    expect(host.toolTokens(def)).toBe(host.tokens.count('{"__proto__":{"polluted":true},"name":"x"}') + 5);
    const renamed = readCustomHostFile(file('{"name":"g","fields":["__proto__","name"],"rename":{"__proto__":"p"}}'));
    expect(customProfile(renamed, 'cl100k_base').render!([def])).toBe('{"p":{"polluted":true},"name":"x"}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    [
      'not JSON',
      '{"name": ',
      /host-\d+\.json: at \(root\): expected a JSON object describing a host, found .*not valid JSON|Unexpected end/,
    ],
    ['an array', '[]', /at \(root\): expected a JSON object describing a host, found an array of 0/],
    ['an unknown key', JSON.stringify({ ...ANTHROPIC_LIKE, perTool: 3 }), /at perTool: expected one of the keys name, fields/],
    ['a bad name', JSON.stringify({ ...ANTHROPIC_LIKE, name: 'a b' }), /at name: expected a name of 1 to 64/],
    ['no fields', JSON.stringify({ name: 'x', fields: [] }), /at fields: expected a list of 1 to 64/],
    ['a repeated field', JSON.stringify({ name: 'x', fields: ['name', 'name'] }), /at fields\[1\]: expected each field once/],
    ['a field with a control character', JSON.stringify({ name: 'x', fields: ['na\u0000me'] }), /at fields\[0\]: expected a field name/],
    [
      'a rename of a field not sent',
      JSON.stringify({ name: 'x', fields: ['name'], rename: { title: 't' } }),
      /at rename\.title: expected a field listed/,
    ],
    [
      'two fields renamed alike',
      JSON.stringify({ name: 'x', fields: ['name', 'title'], rename: { title: 'name' } }),
      /at rename: expected names that differ/,
    ],
    [
      'a negative count',
      JSON.stringify({ ...ANTHROPIC_LIKE, perToolTokens: -1 }),
      /at perToolTokens: expected a whole number of tokens from 0 to 100,000/,
    ],
    ['a fractional count', JSON.stringify({ ...ANTHROPIC_LIKE, perRequestTokens: 1.5 }), /at perRequestTokens: expected a whole number/],
    [
      'an unknown tokenizer',
      JSON.stringify({ ...ANTHROPIC_LIKE, tokenizer: 'claude' }),
      /at tokenizer: expected one of cl100k_base, o200k_base/,
    ],
    ['a long source', JSON.stringify({ ...ANTHROPIC_LIKE, source: 'x'.repeat(501) }), /at source: expected a note of at most 500/],
  ])('refuses %s with one line naming the file and the JSON path', (_, content, message) => {
    const f = file(content);
    let err: Error | undefined;
    try {
      readCustomHostFile(f);
    } catch (e) {
      err = e as Error;
    }
    expect(err?.name).toBe('InputError');
    expect(err!.message).toContain(f);
    expect(err!.message).toMatch(message);
    expect(err!.message).not.toContain('\n');
  });

  it('refuses a file over the size limit before parsing it, and a directory', () => {
    expect(() =>
      readCustomHostFile(file(`{"name":"x","fields":["name"],"source":"${'y'.repeat(2000)}"}`), { ...DEFAULT_LIMITS, maxFileBytes: 1000 }),
    ).toThrow(/expected at most 1,000 \(--max-file-bytes\)/);
    expect(() => readCustomHostFile(tmp)).toThrow(/expected a regular file, found a directory/);
  });

  it('on the command line: one line and exit 2 for a bad file or a file with another host', async () => {
    const bad = json({ name: 'x', fields: 'name' });
    const [r, mixed] = await Promise.all([
      cliInProcess(['budget', '--catalog', 'catalogs/real/filesystem.json', '--max-tool-tokens', '1', '--host-file', bad]),
      cliInProcess([
        'budget',
        '--catalog',
        'catalogs/real/filesystem.json',
        '--max-tool-tokens',
        '1',
        '--host',
        'anthropic',
        '--host-file',
        bad,
      ]),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      `error: ${bad}: at fields: expected a list of 1 to 64 tools/list field names (e.g. ["name", "description", "inputSchema"]), found a string (4 characters)`,
    ]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr.trim()).toBe('error: --host-file describes a custom host: use it with --host custom, not anthropic');
  });
});
