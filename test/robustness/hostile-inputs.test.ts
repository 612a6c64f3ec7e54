import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { footprintTable } from '../../src/catalog/footprint-table.ts';
import { loadCatalog } from '../../src/catalog/load.ts';
import { externalRefWarnings, refSizeTable, refUses } from '../../src/catalog/ref-table.ts';
import type { Catalog } from '../../src/catalog/types.ts';
import { readClientConfig } from '../../src/mcp/config.ts';
import { loadTasks } from '../../src/tasks/load.ts';
import { TokenCounter } from '../../src/tokens/counter.ts';
import { InputError } from '../../src/util/input-error.ts';
import { DEFAULT_LIMITS, fsReason, type InputLimits } from '../../src/util/limits.ts';
import { makeTempDir } from '../helpers/temp.ts';

/**
 * The hostile-input corpus, generated here (the big cases are never committed), run in-process
 * through the loaders and everything `catalog` computes on a catalog (footprint, $ref table,
 * derived summaries). Each case must end in a one-line InputError naming the file, or in a
 * result; and each must cost under CASE_BOUND_MS of this process's CPU time (a quadratic path
 * costs minutes; CPU time, unlike wall time, does not grow when other processes load the
 * machine). test/robustness/cli.test.ts spawns the CLI for a few representative cases (exit 2).
 */
const CASE_BOUND_MS = 5_000;

const tokens = new TokenCounter();
const dir = makeTempDir('tooltax-hostile-');
let n = 0;
const file = (content: string | Buffer, name = `c${n++}.json`): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  description: `${name} things.`,
  inputSchema: { type: 'object', properties: {} },
  ...extra,
});
const dump = (tools: unknown[], server = 'srv') => file(JSON.stringify({ server, tools }));

/** `{"x":{"x":…}}`, `depth` objects deep. */
function deepJson(depth: number): string {
  return `${'{"x":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** A dump of one tool `a` with `field` set to this JSON text. */
const rawTool = (field: string, json: string) => file(`{"tools":[{"name":"a","inputSchema":{},"${field}":${json}}]}`);

/** A catalog folder with one dump of tool `a` and this catalog.meta.json (written as text: JSON.stringify would overflow on a deep one). */
function withMeta(meta: unknown): string {
  const d = makeTempDir('tooltax-hostile-meta-');
  writeFileSync(join(d, 'a.json'), JSON.stringify({ tools: [tool('a')] }));
  writeFileSync(join(d, 'catalog.meta.json'), typeof meta === 'string' ? meta : JSON.stringify(meta));
  return d;
}

function nested(depth: number): string {
  return `${'{"type":"object","properties":{"x":'.repeat(depth)}{}${'}}'.repeat(depth)}`;
}

/** Everything the `catalog` command computes on a loaded catalog. */
function measureCatalog(c: Catalog): void {
  footprintTable(c, tokens);
  const uses = refUses(c);
  externalRefWarnings(uses);
  refSizeTable(c, tokens, uses);
  for (const t of c.tools) expect(t.summary.length).toBeGreaterThan(0);
}

type Outcome = 'ok' | RegExp;

function expectOutcome(run: () => void, outcome: Outcome, path: string): void {
  const started = process.cpuUsage();
  let err: unknown;
  try {
    run();
  } catch (e) {
    err = e;
  }
  const used = process.cpuUsage(started);
  const ms = (used.user + used.system) / 1000;
  if (outcome === 'ok') expect(err, String(err)).toBeUndefined();
  else {
    expect(err, 'expected a clear error').toBeInstanceOf(InputError);
    const message = (err as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toContain(path);
    expect(message).toMatch(outcome);
  }
  expect(ms, `took ${ms.toFixed(0)} ms of CPU time`).toBeLessThan(CASE_BOUND_MS);
}

const RAISED: InputLimits = { ...DEFAULT_LIMITS, maxTextChars: 2_000_000, maxFileBytes: 64 * 1024 * 1024 };

function refBomb(levels: number): unknown {
  const $defs: Record<string, unknown> = { a0: { type: 'string', description: 'leaf' } };
  for (let i = 1; i <= levels; i++)
    $defs[`a${i}`] = { type: 'object', properties: { l: { $ref: `#/$defs/a${i - 1}` }, r: { $ref: `#/$defs/a${i - 1}` } } };
  return { type: 'object', $defs, properties: { top: { $ref: `#/$defs/a${levels}` } } };
}

function refChain(length: number): unknown {
  const $defs: Record<string, unknown> = { [`d${length}`]: { type: 'string' } };
  for (let i = 0; i < length; i++) $defs[`d${i}`] = { type: 'object', properties: { next: { $ref: `#/$defs/d${i + 1}` } } };
  return { type: 'object', $defs, properties: { head: { $ref: '#/$defs/d0' } } };
}

describe('hostile catalogs (in-process: loadCatalog + footprint + $ref table)', () => {
  const folderWithDirJson = makeTempDir('tooltax-hostile-folder-');
  writeFileSync(join(folderWithDirJson, 'ok.json'), JSON.stringify({ tools: [tool('a')] }));
  mkdirSync(join(folderWithDirJson, 'x.json'));
  const fifo = join(dir, 'fifo.json');
  execFileSync('mkfifo', [fifo]);
  const unreadable = dump([tool('a')]);
  chmodSync(unreadable, 0o000);
  const longWord = 'x'.repeat(40_000);

  const cases: [string, () => string, Outcome, InputLimits?][] = [
    ['broken JSON', () => file('{"tools": ['), /expected valid JSON/],
    ['an empty file', () => file(''), /expected valid JSON/],
    ['a scalar', () => file('42'), /expected an array of tools/],
    [
      'a symlink to a private non-JSON file (its text must not reach the error)',
      () => {
        const secret = file('PRIVATE-KEY-MATERIAL-0123456789', 'secret.txt');
        const link = join(dir, `link${n++}.json`);
        symlinkSync(secret, link);
        return link;
      },
      /expected valid JSON, found Unexpected token 'P' \(not valid JSON\)$/,
    ],
    ['null inputSchema', () => dump([tool('a', { inputSchema: null })]), /inputSchema: expected a JSON Schema object/],
    [
      'a directory named x.json in a catalog folder',
      () => folderWithDirJson,
      /x\.json: at \(root\): expected a regular file, found a directory/,
    ],
    ['a FIFO', () => fifo, /expected a regular file, found a device, FIFO or socket/],
    ['/dev/zero', () => '/dev/zero', /expected a regular file, found a device, FIFO or socket/],
    // Root reads anything: then the file loads, which is the right result too.
    ['an unreadable file (EACCES unless root)', () => unreadable, process.getuid?.() === 0 ? 'ok' : /no permission to read it \(EACCES\)/],
    [
      'a schema nested 5,000 deep',
      () => file(`{"tools":[{"name":"deep","inputSchema":${nested(5000)}}]}`),
      /at \$\.tools\[0\]\.inputSchema\.properties\.x\.properties\.x…\.x\.properties: expected at most 64 \(--max-depth\), found deeper nesting$/,
    ],
    ['annotations nested 100,000 deep', () => rawTool('annotations', deepJson(100_000)), /\$\.tools\[0\]\.annotations\.x\.x.*--max-depth/],
    ['_meta nested 100,000 deep', () => rawTool('_meta', deepJson(100_000)), /\$\.tools\[0\]\._meta\.x.*--max-depth/],
    [
      'an unknown field of arrays nested 100,000 deep',
      () => rawTool('extra', `${'['.repeat(100_000)}${']'.repeat(100_000)}`),
      /\$\.tools\[0\]\.extra\[0\]\[0\].*--max-depth/,
    ],
    [
      'a 1 MB string in an unknown field',
      () => dump([tool('a', { vendor: { notes: 'n'.repeat(1_000_000) } })]),
      /at \$\.tools\[0\]\.vendor\.notes: expected at most 32,768 \(--max-text-chars\), found 1,000,000 characters$/,
    ],
    [
      'a 1 MB parameter description',
      () => dump([tool('a', { inputSchema: { type: 'object', properties: { p: { description: 'w '.repeat(500_000) } } } })]),
      /\$\.tools\[0\]\.inputSchema\.properties\.p\.description: expected at most 32,768 \(--max-text-chars\)/,
    ],
    [
      'a 1 MB property name (quoted and cut in the path)',
      () => dump([tool('a', { inputSchema: { type: 'object', properties: { ['k'.repeat(1_000_000)]: {} } } })]),
      /\$\.tools\[0\]\.inputSchema\.properties\["k{20}…"\] \(the key\): expected at most 32,768 \(--max-text-chars\), found 1,000,000 characters$/,
    ],
    [
      'one million small values in an unknown field',
      () => dump([tool('a', { extra: Array.from({ length: 1_000 }, () => Array(1_000).fill(1)) })]),
      'ok',
    ],
    [
      'a 1 MB description',
      () => dump([tool('a', { description: 'word '.repeat(200_000) })]),
      /description: expected at most 32,768 \(--max-text-chars\), found 1,000,000/,
    ],
    ['a 1 MB description with the limit raised', () => dump([tool('a', { description: 'word '.repeat(200_000) })]), 'ok', RAISED],
    ['a 1 MB description without a space, limit raised', () => dump([tool('a', { description: 'y'.repeat(1_000_000) })]), 'ok', RAISED],
    ['40 KB without a sentence break, limit raised', () => dump([tool('a', { description: 'alpha beta, '.repeat(3_500) })]), 'ok', RAISED],
    [
      'a 40 KB run without spaces in a property name, limit raised',
      () => dump([tool('a', { inputSchema: { type: 'object', properties: { [longWord]: {} } } })]),
      'ok',
      RAISED,
    ],
    [
      'a file over the size limit',
      () => dump([tool('a')]),
      /expected at most 10 \(--max-file-bytes\)/,
      { ...DEFAULT_LIMITS, maxFileBytes: 10 },
    ],
    ['20,000 tools', () => dump(Array.from({ length: 20_000 }, (_, i) => tool(`t${i}`))), /expected at most 10,000 \(--max-tools\)/],
    [
      'a duplicate name',
      () => dump([tool('a'), tool('a')]),
      /\$\.tools\[1\]\.name: expected a tool name unique within server "srv", found "a" again/,
    ],
    [
      'server "x" tool "a/b" and server "x/a" tool "b": two tools, one id',
      () =>
        file(
          JSON.stringify({
            servers: [
              { server: 'x', tools: [tool('a/b')] },
              { server: 'x/a', tools: [tool('b')] },
            ],
          }),
        ),
      /at \$\.servers\[1\]\.tools\[0\]\.name: expected a tool id \(server\/name\) unique in the catalog, found "x\/a\/b", the id of server "x" tool "a\/b" too \(in .*c\d+\.json\)$/,
    ],
    [
      'the same tool name on two servers',
      () =>
        file(
          JSON.stringify({
            servers: [
              { server: 'x', tools: [tool('b')] },
              { server: 'y', tools: [tool('b')] },
            ],
          }),
        ),
      'ok',
    ],
    [
      'tool names of Object.prototype members',
      () => dump(['constructor', '__proto__', 'toString', 'hasOwnProperty'].map((x) => tool(x))),
      'ok',
    ],
    [
      'server names with formulas, HTML and path segments',
      () =>
        file(
          JSON.stringify({
            servers: ['=HYPERLINK("x")', '<script>alert(1)</script>', '../../etc'].map((server) => ({ server, tools: [tool('a')] })),
          }),
        ),
      'ok',
    ],
    [
      'unicode, emoji and a lone surrogate',
      () => dump([tool('ünï', { description: 'emoji 😀 and a lone \ud800 surrogate. Then more.' })]),
      'ok',
    ],
    [
      '$ref to a file, a URL, "#", a cycle and nothing',
      () =>
        dump([
          tool('r', {
            inputSchema: {
              type: 'object',
              $defs: { L: { properties: { n: { $ref: '#/$defs/L' } } } },
              properties: {
                f: { $ref: '/etc/passwd' },
                u: { $ref: 'https://example.invalid/s.json' },
                s: { $ref: '#' },
                l: { $ref: '#/$defs/L' },
                m: { $ref: '#/$defs/none' },
              },
            },
          }),
        ]),
      'ok',
    ],
    ['a $ref bomb (2^40 leaves when inlined)', () => dump([tool('bomb', { inputSchema: refBomb(40) })]), 'ok'],
    ['a chain of 20,000 $defs, each pointing at the next', () => dump([tool('chain', { inputSchema: refChain(20_000) })]), 'ok'],
    [
      'a meta file of the wrong shape',
      () => {
        const d = makeTempDir('tooltax-hostile-meta-');
        writeFileSync(join(d, 'a.json'), JSON.stringify({ tools: [tool('a')] }));
        writeFileSync(join(d, 'catalog.meta.json'), JSON.stringify({ tools: { 'a/a': { tags: 'x' } } }));
        return d;
      },
      /catalog\.meta\.json: at \$\.tools\["a\/a"\]\.tags: expected an array of strings/,
    ],
    [
      'a 64 KB summary in the meta file',
      () => withMeta({ tools: { 'a/a': { summary: 's '.repeat(32_000) } } }),
      /catalog\.meta\.json: at \$\.tools\["a\/a"\]\.summary: expected at most 32,768 \(--max-text-chars\), found 64,000 characters$/,
    ],
    [
      'a sample response nested 100,000 deep in the meta file',
      () => withMeta(`{"tools":{"a/a":{"sampleResponse":${deepJson(100_000)}}}}`),
      /catalog\.meta\.json: at \$\.tools\["a\/a"\]\.sampleResponse\.x.*--max-depth/,
    ],
  ];

  it.each(cases)('%s', (_, make, outcome, limits) => {
    const path = make();
    expectOutcome(() => measureCatalog(loadCatalog(path, limits ?? DEFAULT_LIMITS)), outcome, path);
  });

  it('names the file of a $ref bomb as too large to inline instead of expanding it', () => {
    const c = loadCatalog(dump([tool('bomb', { inputSchema: refBomb(40) })]));
    expect(refSizeTable(c, tokens)!.rows[0]!.left).toMatch(/too large to inline/);
  });

  it('maps file-system errors to a short reason (EACCES stand-in error object, as root cannot get one)', () => {
    expect(fsReason(Object.assign(new Error('EACCES: permission denied, open x'), { code: 'EACCES' }))).toBe(
      'no permission to read it (EACCES)',
    );
    expect(fsReason(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe('nothing at that path');
  });
});

describe('hostile task files (in-process: loadTasks)', () => {
  const catalog = loadCatalog(join('test', 'fixtures', 'small-catalog'));
  const name = catalog.tools[0]!.name;
  const line = (o: unknown) => `${JSON.stringify(o)}\n`;
  const fifo = join(dir, 'tasks.fifo');
  execFileSync('mkfifo', [fifo]);
  const cases: [string, () => string, Outcome][] = [
    ['a directory', () => makeTempDir('tooltax-hostile-tasks-'), /expected a regular file, found a directory/],
    ['a FIFO', () => fifo, /expected a regular file/],
    ['/dev/zero', () => '/dev/zero', /expected a regular file/],
    [
      'broken JSON on line 2',
      () => file(`${line({ id: 'a', turns: [{ user: 'x', tools: [] }] })}{"id":`, 't.jsonl'),
      /line 2 \$: expected one JSON object per line/,
    ],
    ['an empty file', () => file('', 'e.jsonl'), /expected at least one task/],
    [
      'a 1 MB message',
      () => file(line({ id: 'a', turns: [{ user: 'w '.repeat(500_000), tools: [] }] }), 'm.jsonl'),
      /\.user: expected at most 32,768 \(--max-text-chars\)/,
    ],
    [
      '2,000 turns',
      () => file(line({ id: 'a', turns: Array.from({ length: 2_000 }, () => ({ user: 'hi', tools: [] })) }), 'l.jsonl'),
      /\$\.turns: expected at most 1,000 \(--max-turns\)/,
    ],
    [
      'a tool named constructor',
      () => file(line({ id: 'a', turns: [{ user: 'x', tools: ['constructor'] }] }), 'c.jsonl'),
      /tools\[0\]: expected a tool of catalog/,
    ],
    [
      'an unknown field nested 100,000 deep',
      () => file(`{"id":"a","turns":[{"user":"x","tools":[]}],"extra":${deepJson(100_000)}}\n`, 'd.jsonl'),
      /line 1 \$\.extra\.x\.x.*: expected at most 64 \(--max-depth\)/,
    ],
    [
      'a 1 MB task id',
      () => file(line({ id: 'i'.repeat(1_000_000), turns: [{ user: 'x', tools: [] }] }), 'i.jsonl'),
      /line 1 \$\.id: expected at most 32,768 \(--max-text-chars\), found 1,000,000 characters$/,
    ],
    [
      'task ids of Object.prototype members',
      () =>
        file(['__proto__', 'constructor', 'toString'].map((id) => line({ id, turns: [{ user: 'x', tools: [name] }] })).join(''), 'p.jsonl'),
      'ok',
    ],
  ];
  it.each(cases)('%s', (_, make, outcome) => {
    const path = make();
    expectOutcome(() => loadTasks(path, catalog), outcome, path);
  });

  it('200,000 tasks over a 10,000-tool catalog (each task looked its servers up in the whole catalog)', () => {
    const big = loadCatalog(dump(Array.from({ length: 10_000 }, (_, i) => tool(`t${i}`))));
    const path = file(
      Array.from({ length: 200_000 }, (_, i) => line({ id: `k${i}`, turns: [{ user: 'x', tools: ['t9999'] }] })).join(''),
      'many.jsonl',
    );
    expectOutcome(() => loadTasks(path, big), 'ok', path);
  });
});

describe('hostile MCP client configs (in-process: readClientConfig)', () => {
  const config = (text: string) => file(text, `config${n++}.json`);
  const cases: [string, () => string, Outcome][] = [
    ['a FIFO', () => fifoConfig, /expected a regular file, found a device, FIFO or socket/],
    [
      'a server entry nested 100,000 deep',
      () => config(`{"mcpServers":{"s":{"command":"x","extra":${deepJson(100_000)}}}}`),
      /\$\.mcpServers\.s\.extra\.x.*--max-depth/,
    ],
    [
      'a 1 MB argument',
      () => config(JSON.stringify({ mcpServers: { s: { command: 'x', args: ['a'.repeat(1_000_000)] } } })),
      /at \$\.mcpServers\.s\.args\[0\]: expected at most 32,768 \(--max-text-chars\), found 1,000,000 characters$/,
    ],
    ['an ordinary config', () => config(JSON.stringify({ mcpServers: { s: { command: 'node', args: ['server.js'] } } })), 'ok'],
  ];
  const fifoConfig = join(dir, 'config.fifo');
  execFileSync('mkfifo', [fifoConfig]);
  it.each(cases)('%s', (_, make, outcome) => {
    const path = make();
    expectOutcome(() => readClientConfig(path, {}), outcome, path);
  });
});
