import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverEntry } from '../mcp/helpers.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { cli } from './cli-helpers.ts';

/**
 * Whatever a server does, `catalog`, `budget` and `lint --from-server` end with the status that
 * says what happened, and say it. Through the CLI in a child process: inside the test runner the
 * event loop never runs dry, which is how a capture that had not settled once exited 0 in silence.
 */
const NODE = `'${process.execPath}'`;
const MEMORY = `${NODE} '${serverEntry('server-memory')}'`;
/** A real MCP server behind a launcher that outlives it (and, with `trap`, ignores SIGTERM too). */
const WRAPPED = `sh -c "${MEMORY}; sleep 30"`;
const WRAPPED_DEAF = `sh -c "trap '' TERM; ${MEMORY}; sleep 30"`;
const GARBAGE = `sh -c 'echo garbage; sleep 20'`;
/** Bound on one run: start-up, the capture and the three 1 s grace periods to stop a group, on a loaded machine. */
const BOUND_MS = 90_000;

describe.concurrent('a capture settles on every path (CLI in a child process)', () => {
  const dir = makeTempDir('tooltax-e2e-settle-');

  it('budget: a server over the limit behind a wrapper that outlives it: exit 1 with the report', async () => {
    const r = await cli(['budget', '--from-server', WRAPPED, '--max-tool-tokens', '100'], BOUND_MS);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/FAIL/);
    expect(r.stdout).toMatch(/memory-server/);
  });

  it('budget: the same wrapper ignoring SIGTERM is killed, and the report still comes: exit 1', async () => {
    const r = await cli(['budget', '--from-server', WRAPPED_DEAF, '--max-tool-tokens', '100'], BOUND_MS);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/FAIL/);
  });

  it('budget: within the limit behind a wrapper: exit 0 with the report', async () => {
    const r = await cli(['budget', '--from-server', WRAPPED, '--max-tool-tokens', '100000'], BOUND_MS);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/PASS/);
  });

  it('budget: a server that prints garbage: exit 2, "not JSON-RPC" naming the line', async () => {
    const r = await cli(['budget', '--from-server', GARBAGE, '--max-tool-tokens', '100'], BOUND_MS);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: server --from-server #1: not JSON-RPC: during initialize the server wrote "garbage" on stdout/m);
    expect(r.stderr).toMatch(/^error: budget: 1 server\(s\) could not be captured/m);
  });

  it('budget: a server that hangs: exit 2 at the deadline, naming the stage', async () => {
    const r = await cli(['budget', '--from-server', 'sleep 20', '--timeout', '3'], BOUND_MS);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/timed out after 3 s during initialize/);
  });

  it('budget: a server that exits with a status: exit 2, naming the status', async () => {
    const r = await cli(['budget', '--from-server', `${NODE} -e "process.exit(3)"`], BOUND_MS);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/the server exited with status 3 during initialize/);
  });

  it('lint: a server that prints garbage: exit 2', async () => {
    const r = await cli(['lint', '--from-server', GARBAGE], BOUND_MS);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/not JSON-RPC/);
  });

  it('catalog: a server that prints garbage: exit 2 and no empty output folder', async () => {
    const out = join(dir, 'garbage');
    const r = await cli(['catalog', '--from-server', GARBAGE, '--out', out], BOUND_MS);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/not JSON-RPC/);
    expect(existsSync(out)).toBe(false);
  });

  it('catalog: a real server behind a wrapper that outlives it: exit 0, the dump written and reported', async () => {
    const out = join(dir, 'wrapped');
    const r = await cli(['catalog', '--from-server', WRAPPED_DEAF, '--out', out], BOUND_MS);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(out)).toEqual(['memory-server.json']);
    const dump = JSON.parse(readFileSync(join(out, 'memory-server.json'), 'utf8')) as { tools: unknown[] };
    expect(dump.tools.length).toBeGreaterThan(0);
    expect(r.stderr).toMatch(/captured memory-server: \d+ tools/);
  });
});
