import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { footprintTable } from '../../src/catalog/footprint-table.ts';
import { loadCatalog } from '../../src/catalog/load.ts';
import { runBench } from '../../src/bench/run.ts';
import { retrievalCommand } from '../../src/commands/retrieval.ts';
import { formatCell, type Table } from '../../src/table/table.ts';
import { tokenCounter } from '../../src/tokens/counter.ts';
import { InputError } from '../../src/util/input-error.ts';
import { makeTempDir } from '../helpers/temp.ts';

/**
 * Catalogs at the small end: an empty one is a one-line error naming the file wherever a
 * catalog is read (loadCatalog serves bench, retrieval, catalog and budget); one or two tools
 * run everything, and a retriever whose library cannot index so few (bm25:wink needs three) is
 * skipped with a note in its table, never fatal.
 */
const dir = makeTempDir('tooltax-catalog-size-');
const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: 'object', properties: {} } });
const write = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};
const oneTool = write('one.json', { server: 'files', tools: [tool('read_file', 'Read a file from disk.')] });
const twoTools = write('two.json', { server: 'files', tools: [tool('read_file', 'Read a file.'), tool('write_file', 'Write a file.')] });
const tasksFor = (name: string, tools: string[]) =>
  write(
    name,
    tools
      .map((t, i) => JSON.stringify({ id: `t${i}`, turns: [{ user: `please ${t.replace('_', ' ')} notes.txt`, tools: [t] }] }))
      .join('\n'),
  );

describe('an empty catalog is a one-line error naming the file', () => {
  const emptyFolder = join(dir, 'empty-folder');
  mkdirSync(emptyFolder);
  writeFileSync(join(emptyFolder, 'a.json'), '{"tools": []}');
  const cases: [string, string][] = [
    ['{"tools": []}', write('e1.json', { tools: [] })],
    ['[]', write('e2.json', [])],
    ['{"servers": []}', write('e3.json', { servers: [] })],
    ['{"result": {"tools": []}}', write('e4.json', { result: { tools: [] } })],
    ['a folder of empty dumps', emptyFolder],
  ];
  it.each(cases)('%s', (_, path) => {
    let err: unknown;
    try {
      loadCatalog(path);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    const message = (err as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toBe(`${path}: at (root): expected at least one tool, found none`);
  });

  it('the footprint of an empty tool list has no ∞ (a catalog built in code)', () => {
    const t = footprintTable({ name: 'none', source: 'none', servers: [], tools: [] }, tokenCounter());
    const cells = t.rows.flatMap((r) => t.columns.map((c) => formatCell(r[c.key], c)));
    expect(cells.join(' ')).not.toMatch(/∞|NaN/);
  });
});

describe('one or two tools: retrievers that cannot index them are skipped with a note', () => {
  it.each([
    ['one tool', oneTool, ['read_file']],
    ['two tools', twoTools, ['read_file', 'write_file']],
  ])('retrieval --retriever all, %s', async (_, catalog, tools) => {
    const tasks = tasksFor(`${tools.length}.jsonl`, tools);
    let out = '';
    await retrievalCommand(
      { catalog: [catalog], tasks, retriever: ['all'], query: 'message', json: false },
      process.cwd(),
      (t) => (out += t),
    );
    expect(out).toContain(`- bm25:wink: skipped: needs at least 3 tools, the catalog has ${tools.length}.`);
    expect(out).toMatch(/^\| bm25 \| 1\.000 \|/m);
    expect(out).not.toMatch(/^\| bm25:wink \|/m);
    let json = '';
    await retrievalCommand(
      { catalog: [catalog], tasks, retriever: ['bm25:wink', 'bm25'], query: 'message', json: true },
      process.cwd(),
      (t) => (json += t),
    );
    const parsed = JSON.parse(json) as { retrievers: { name: string }[]; skipped: { name: string; reason: string }[] };
    expect(parsed.retrievers.map((r) => r.name)).toEqual(['bm25']);
    expect(parsed.skipped).toEqual([{ name: 'bm25:wink', reason: `needs at least 3 tools, the catalog has ${tools.length}` }]);
  });

  it('bench: every pipeline and the retrieval study run on one tool; the study notes the skipped retriever', async () => {
    const out = join(dir, 'bench-one');
    const { summaries } = await runBench({
      root: process.cwd(),
      seed: 42,
      seeds: [42],
      catalog: [oneTool],
      tasks: tasksFor('one-bench.jsonl', ['read_file']),
      tokenizer: 'cl100k_base',
      out,
      reports: join(dir, 'reports-one'),
      studies: ['retrieval'],
      quick: false,
      lanes: 1,
      log: () => {},
    });
    expect(summaries.length).toBeGreaterThan(10);
    const table = JSON.parse(readFileSync(join(out, 'tables', 'retrieval-synthetic.json'), 'utf8')) as Table;
    expect(table.notes).toContain('bm25:wink: skipped: needs at least 3 tools, the catalog has 1.');
  });

  it('bench --retriever bm25:wink on two tools: a one-line error before any work', async () => {
    await expect(
      runBench({
        root: process.cwd(),
        seed: 42,
        seeds: [42],
        catalog: [twoTools],
        tasks: tasksFor('two-bench.jsonl', ['read_file']),
        tokenizer: 'cl100k_base',
        out: join(dir, 'bench-two'),
        reports: join(dir, 'reports-two'),
        retriever: 'bm25:wink',
        studies: [],
        quick: false,
        lanes: 1,
        log: () => {},
      }),
    ).rejects.toThrow(new InputError(twoTools, '', 'at least 3 tools for --retriever bm25:wink', '2'));
  });
});
