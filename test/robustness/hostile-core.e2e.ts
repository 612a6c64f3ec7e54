import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureServer } from '../../src/mcp/capture.ts';
import { specFromCommandLine } from '../../src/mcp/config.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { cli } from './cli-helpers.ts';

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
