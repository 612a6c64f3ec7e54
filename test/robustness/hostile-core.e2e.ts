import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureServer } from '../../src/mcp/capture.ts';
import { specFromCommandLine } from '../../src/mcp/config.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { cli, expectOneLineError } from './cli-helpers.ts';

/**
 * Sizes of what an MCP server sends (a server of our own, test/fixtures/mcp/sized-server.mjs):
 * a tools/list message over the SDK's stdio buffer is reported as such, and --max-tools applies
 * to what a capture wrote as it does to a catalog file.
 */
const SIZED = join(process.cwd(), 'test', 'fixtures', 'mcp', 'sized-server.mjs');
const node = (args: string) => `'${process.execPath}' ${args}`;

describe('what a captured server sends, by size', () => {
  it('a tools/list message over the MCP SDK’s 10 MB buffer is named, not “the server closed the connection”', async () => {
    const err = await captureServer(specFromCommandLine(node(`${SIZED} huge`), 0), 20_000).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(String(err)).toMatch(
      /^CaptureError: server --from-server #1: a message from the server during tools\/list page 1 was over the MCP SDK's stdio limit of 10 MiB \(10,485,760 bytes\)$/,
    );
  });

  it('catalog --from-server --max-tools 20000 captures 12,000 tools; the default limit refuses them naming the flag', async () => {
    const out = makeTempDir('tooltax-max-tools-');
    const server = node(`${SIZED} many 12000`);
    const raised = await cli(['catalog', '--from-server', server, '--out', join(out, 'a'), '--max-tools', '20000'], 60_000);
    expect(raised.stderr).not.toMatch(/error/);
    expect(raised.code).toBe(0);
    expect(raised.stdout).toMatch(/\| total \| 12,000 \|/);
    const kept = await cli(['catalog', '--from-server', server, '--out', join(out, 'b')], 60_000);
    expect(kept.code).toBe(2);
    expect(kept.stderr).toMatch(/expected at most 10,000 \(--max-tools\), found more tools/);
  });
});

describe('control sequences in tool text never reach the terminal', () => {
  const dir = makeTempDir('tooltax-terminal-');
  const ESC_NAME = 'x\u001b]8;;https://evil.invalid\u0007link\u001b]8;;\u0007\u001b[2J\u009b31m\u202e';
  const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
  const tool = (name: string) => ({ name, description: `Does ${name}.`, inputSchema: { type: 'object', properties: {} } });

  it('catalog and budget print the names escaped; an error naming one is one escaped line', async () => {
    const file = join(dir, 'esc.json');
    writeFileSync(file, JSON.stringify({ server: ESC_NAME, tools: [tool(ESC_NAME), tool('b\nPASS: forged line')] }));
    for (const args of [
      ['catalog', '--catalog', file],
      ['budget', '--catalog', file, '--per-tool', '1'],
    ]) {
      const r = await cli(args);
      expect(`${r.stdout}${r.stderr}`, args[0]).not.toMatch(TERMINAL_CONTROL);
      expect(r.stdout, args[0]).toContain('\\u001B]8;;https://evil.invalid\\u0007link');
    }
    const budget = await cli(['budget', '--catalog', file, '--per-tool', '1']);
    expect(budget.stdout).not.toMatch(/^PASS: forged line/m);
    const dup = join(dir, 'dup.json');
    writeFileSync(dup, JSON.stringify({ server: 's', tools: [tool(ESC_NAME), tool(ESC_NAME)] }));
    const r = await cli(['catalog', '--catalog', dup]);
    expectOneLineError(r, /expected a tool name unique within server "s", found "x\\u001B\]8;;/);
    expect(r.stderr).not.toMatch(TERMINAL_CONTROL);
  });
});
