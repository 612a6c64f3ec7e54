import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { captureServer } from '../../src/mcp/capture.ts';
import { readClientConfig, specFromCommandLine } from '../../src/mcp/config.ts';
import { stderrCause } from '../../src/mcp/stderr-cause.ts';
import { loadTasks } from '../../src/tasks/load.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { cliInProcess, expectOneLine } from '../helpers/cli-in-process.ts';

/**
 * A new user's first hour: a mistake in a task file, a catalog or a config is refused in one
 * line that says what was meant; paths are read from where the user typed the command; a server
 * that does not start says why.
 */
const CATALOG = 'test/fixtures/small-catalog';
const dir = makeTempDir('tooltax-first-hour-');
let n = 0;
const write = (text: string, name = `f${n++}.jsonl`) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const turn = (extra: Record<string, unknown>) => JSON.stringify({ id: 't1', turns: [{ user: 'post hello to #general', ...extra }] });
/** The task file through the CLI, as a user runs it (retrieval reads the catalog and the tasks first). */
const retrieval = (tasks: string) => cliInProcess(['retrieval', '--catalog', CATALOG, '--tasks', tasks, '--retriever', 'bm25']);

describe('a task file with a mistake is refused in one line with the suggestion (exit 2)', () => {
  const cases: [string, string, RegExp][] = [
    [
      '"tool" for "tools"',
      turn({ tool: ['post_message'] }),
      /at line 1 \$\.turns\[0\]\.tool: expected a key of a turn \(user, tools, acceptable\), found the unknown key "tool" \(did you mean "tools"\?\)$/,
    ],
    [
      'a turn without "tools"',
      turn({}),
      /at line 1 \$\.turns\[0\]\.tools: expected an array of tool names \(\[\] for a turn that needs no tool\), found nothing$/,
    ],
    [
      '"turn" for "turns"',
      JSON.stringify({ id: 't1', turn: [{ user: 'x', tools: [] }] }),
      /at line 1 \$\.turn: expected a key of a task \(id, kind, turns, .*\), found the unknown key "turn" \(did you mean "turns"\?\)$/,
    ],
    [
      'a misspelt flag',
      JSON.stringify({ id: 't1', turns: [{ user: 'x', tools: [] }], flags: { ambigous: true } }),
      /at line 1 \$\.flags\.ambigous: .* found the unknown key "ambigous" \(did you mean "ambiguous"\?\)$/,
    ],
    [
      'a JSON array on one line',
      `[${turn({ tools: [] })}]`,
      /at line 1 \$: expected a task object, found a JSON array: write one task per line \(JSON Lines\)$/,
    ],
    [
      'a JSON array over several lines',
      `[\n  ${turn({ tools: [] })}\n]`,
      /at line 1 \$: expected one JSON object per line, found a JSON array: write one task per line \(JSON Lines\)$/,
    ],
    [
      'an unknown tool name',
      turn({ tools: ['post_mesage'] }),
      /at line 1 \$\.turns\[0\]\.tools\[0\]: expected a tool of catalog "small-catalog" .*, found "post_mesage" \(did you mean chat\/post_message\?\)$/,
    ],
    [
      'an unknown tool id: the nearest ids of its server',
      turn({ tools: ['code/get_files'] }),
      /found "code\/get_files" \(did you mean code\/get_file(, code\/[a-z_]+)*( or code\/[a-z_]+)?\?\)$/,
    ],
  ];
  it.each(cases)('%s', async (_, text, pattern) => {
    expectOneLine(await retrieval(write(`${text}\n`)), pattern);
  });

  it('a task file that passed before and has no unknown key loads as before', async () => {
    const ok = write(
      `${turn({ tools: ['post_message'], acceptable: ['chat/read_channel'] })}\n${JSON.stringify({ id: 't2', kind: 'single', turns: [{ user: 'nothing to do', tools: [] }], initialState: { authScopes: [] }, flags: { ambiguous: true } })}\n`,
    );
    const tasks = loadTasks(ok, loadCatalog(CATALOG));
    expect(tasks.map((t) => [t.id, t.turns.map((u) => u.tools), t.flags.ambiguous])).toEqual([
      ['t1', [['chat/post_message']], false],
      ['t2', [[]], true],
    ]);
    const r = await retrieval(ok);
    expect(r.code, r.stderr).toBe(0);
    // What the generator writes (with `servers`, recomputed on load) loads too.
    expect(loadTasks('tasks/calibration.jsonl', loadCatalog('catalogs/synthetic-120')).length).toBe(150);
  });
});

describe('a misspelt key in a catalog or a client config is named with the key meant', () => {
  it('input_schema for inputSchema (exit 2)', async () => {
    const dump = write(JSON.stringify({ tools: [{ name: 'a', input_schema: { type: 'object' } }] }), 'snake.json');
    expectOneLine(
      await cliInProcess(['budget', '--catalog', dump, '--per-tool', '100']),
      /at \$\.tools\[0\]\.inputSchema: expected a JSON Schema object \(MCP requires inputSchema\), found nothing \(found "input_schema": did you mean "inputSchema"\?\)$/,
    );
  });
  it('"tool" for "tools" in a dump, "mcpServer" for "mcpServers" in a config', () => {
    const dump = write(JSON.stringify({ tool: [] }), 'tool.json');
    expect(() => loadCatalog(dump)).toThrow(/none of them one of these \(did you mean "tools"\?\)$/);
    const config = write(JSON.stringify({ mcpServer: { a: { command: 'node' } } }), 'config.json');
    expect(() => readClientConfig(config)).toThrow(/none of them one of these \(found "mcpServer": did you mean "mcpServers"\?\)$/);
  });
  it('a server entry with "arg" for "args" is not run, and says why', () => {
    const config = write(
      JSON.stringify({ mcpServers: { a: { command: 'node', arg: ['server.js'] }, b: { command: 'node', autoApprove: [] } } }),
      'entry.json',
    );
    expect(readClientConfig(config).map((s) => s.problem)).toEqual([
      '"arg" is not a key of a server entry (did you mean "args"?)',
      undefined,
    ]);
  });
});

describe('paths are read from where the user typed the command', () => {
  const run = promisify(execFile);
  const npm = (args: string[]) =>
    run('npm', ['run', '--silent', 'bench', '--', ...args], { cwd: resolve('docs'), timeout: 150_000 }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
  it('npm run from a subfolder finds a relative path, and a missing one is named by its absolute path', async () => {
    const found = await npm(['budget', '--catalog', `../${CATALOG}`, '--max-tool-tokens', '100000000']);
    expect(found.code, found.stderr).toBe(0);
    expect(found.stdout).toMatch(/^PASS: .* 9 tools on 3 server\(s\)/);
    const missing = await npm(['budget', '--catalog', '../test/fixtures/no-such-dump.json', '--max-tool-tokens', '1']);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toMatch(
      new RegExp(`^error: .*found nothing at ${resolve('test/fixtures/no-such-dump.json').replaceAll('/', '\\/')}$`),
    );
  });
});

describe('a server that fails to start says why', () => {
  it('node no-such-file.js: Cannot find module, not the Node version line', async () => {
    const err = await captureServer(specFromCommandLine('node no-such-file.js', 0, dir), 20_000).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(
      /the server exited with status 1 during initialize .*\(stderr: Error: Cannot find module '.*no-such-file\.js'\)$/,
    );
    expect(err?.message).not.toMatch(/Node\.js v/);
  });
  it.each([
    [
      'a Python traceback: its last line',
      'Traceback (most recent call last):\n  File "s.py", line 1, in <module>\n    import mcp\nModuleNotFoundError: No module named \'mcp\'\n',
      "ModuleNotFoundError: No module named 'mcp'",
    ],
    ['an ENOENT line before a banner', 'starting\nspawn uvx ENOENT\nNode.js v20.20.2\n', 'spawn uvx ENOENT'],
    ['nothing naming an error: the last line', 'listening\nbye\n', 'bye'],
  ])('%s', (_, stderr, line) => {
    expect(stderrCause(stderr)?.line).toBe(line);
  });
});

describe('an unknown option gets suggestions among every option of the command', () => {
  it('--max-tokens → --max-tool-tokens', async () => {
    expectOneLine(
      await cliInProcess(['budget', '--max-tokens', '5']),
      /^error: unknown option '--max-tokens' \(did you mean --max-tool-tokens, --max-tools or --max-turns\?\) \(add --help for usage\)$/,
    );
  });
});
