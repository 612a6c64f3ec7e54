import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { serializeToolDefinition } from '../../src/catalog/types.ts';
import { captureServer } from '../../src/mcp/capture.ts';
import { readClientConfig, specFromCommandLine, specFromUrl } from '../../src/mcp/config.ts';
import { captureToDir, type CaptureDump } from '../../src/mcp/dump.ts';
import { countTokens } from '../../src/tokens/counter.ts';
import { everythingStdioNames, freePort, runCli, sdkToolNames, serverEntry, startUntil, stop } from './helpers.ts';

/**
 * Real MCP servers over Streamable HTTP and legacy SSE (server-everything from npm), paging and
 * broken servers (an SDK server of our own), and commands that are no server. The expected
 * tool lists come from an independent SDK client asking the same server over stdio. The groups
 * and the tests in each are independent (each writes its own folder), so they run
 * concurrently: most of their time is spent waiting for servers. (Stdio servers from a client
 * config: live-config.test.ts.)
 */
const SECRET = 'sk-test-7f3a9c2e51d84b06a1e2c3d4';
const HEADER_SECRET = 'hdr-secret-0b1c2d3e4f5a6b7c';
const PAGED = join(process.cwd(), 'test', 'fixtures', 'mcp', 'paged-server.mjs');

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'tooltax-live-test-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.concurrent('Streamable HTTP on 127.0.0.1 (server-everything streamableHttp)', () => {
  let server: ChildProcess | undefined;
  let url: string;
  beforeAll(async () => {
    const port = await freePort();
    server = await startUntil(
      process.execPath,
      [serverEntry('server-everything'), 'streamableHttp'],
      { ...process.env, PORT: String(port) },
      /listening on port/i,
    );
    url = `http://127.0.0.1:${port}/mcp`;
  });
  afterAll(() => stop(server));

  it('captures the same tools as over stdio, and budget --from-url measures them', async ({ expect }) => {
    const [captured, stdio, run] = await Promise.all([
      captureServer(specFromUrl(url, 0), 20_000),
      everythingStdioNames(),
      runCli(['budget', '--from-url', `${url}?token=${SECRET}`, '--max-tool-tokens', '1000000', '--json']),
    ]);
    expect(captured.tools.map((t) => t.name)).toEqual(stdio.names);
    expect(captured.serverInfo.name).toBe(stdio.serverName);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { total: { tools: number; tokens: number } };
    expect(report.total.tools).toBe(stdio.names.length);
    expect(report.total.tokens).toBe(captured.tools.reduce((s, t) => s + countTokens(serializeToolDefinition(t)), 0));
    expect(run.stdout + run.stderr).not.toContain(SECRET);
  });

  it('sends config headers and keeps their values out of the dump', async ({ expect }) => {
    const cfg = join(tmp, 'mcp.json');
    writeFileSync(
      cfg,
      `// VS Code\n{ "servers": { "everything-http": { "type": "http", "url": "${url}", "headers": { "Authorization": "Bearer \${env:TOOLTAX_TEST_HEADER}" } }, }, "inputs": [] }`,
    );
    const out = join(tmp, 'http-out');
    const run = await runCli(['catalog', '--from-config', cfg, '--out', out], { ...process.env, TOOLTAX_TEST_HEADER: HEADER_SECRET });
    expect(run.code).toBe(0);
    const text = readFileSync(join(out, 'everything-http.json'), 'utf8');
    expect(text).not.toContain(HEADER_SECRET);
    expect((JSON.parse(text) as CaptureDump).provenance).toMatchObject({ transport: 'http', headers: ['Authorization'] });
    expect(run.stdout + run.stderr).not.toContain(HEADER_SECRET);
  });
});

describe.concurrent(
  'paging, broken servers and failures (an SDK server of our own, and commands that are no server; the 3 s timeouts: live-failures.test.ts)',
  () => {
    const node = (args: string) => `'${process.execPath}' ${args}`;

    it('follows nextCursor over every page', async ({ expect }) => {
      const [c, sdk] = await Promise.all([
        captureServer(specFromCommandLine(node(`${PAGED} paged`), 0), 20_000),
        sdkToolNames(process.execPath, [PAGED, 'paged']),
      ]);
      expect(c.pages).toBeGreaterThan(1);
      expect(c.tools.map((t) => t.name)).toEqual(sdk.names);
      expect(c.instructions).toBe('Test server.');
    });

    it('exits 2 when no server could be captured, and budget refuses a partial set', async ({ expect }) => {
      const [none, partial] = await Promise.all([
        runCli(['catalog', '--from-server', 'tooltax-no-such-command-xyz', '--out', join(tmp, 'none')]),
        runCli([
          'budget',
          '--from-server',
          `${process.execPath} ${PAGED}`,
          '--from-server',
          'tooltax-no-such-command-xyz',
          '--max-tool-tokens',
          '100000',
        ]),
      ]);
      expect(none.code).toBe(2);
      expect(none.stderr).toContain('error: server --from-server #1: cannot start "tooltax-no-such-command-xyz"');
      expect(existsSync(join(tmp, 'none'))).toBe(false);
      expect(partial.code).toBe(2);
      expect(partial.stderr).toMatch(/error: budget: 1 server\(s\) could not be captured/);
      expect(partial.stdout).toBe('');
    });

    it('replaces a secret the server echoes in its own data, and counts it', async ({ expect }) => {
      const secret = 'echoed-secret-value-1234567';
      const spec = specFromCommandLine(`TOOLTAX_TEST_SECRET=${secret} ${node(`${PAGED} echo-secret`)}`, 0);
      const out = join(tmp, 'echo');
      const outcome = await captureToDir([spec], out, { timeoutMs: 20_000, force: false, log: () => {}, warn: () => {} });
      const text = readFileSync(outcome.written[0]!.file, 'utf8');
      expect(text).not.toContain(secret);
      const dump = JSON.parse(text) as CaptureDump;
      expect(dump.tools[0]!.description).toBe('Connects with key <redacted>.');
      expect(dump.provenance.redactedInServerData).toBe(1);
      expect(dump.provenance.env).toEqual(['TOOLTAX_TEST_SECRET']);
    });
  },
);

describe.concurrent('legacy SSE (server-everything sse, config type "sse")', () => {
  let server: ChildProcess | undefined;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    server = await startUntil(
      process.execPath,
      [serverEntry('server-everything'), 'sse'],
      { ...process.env, PORT: String(port) },
      /running on port/i,
    );
  });
  afterAll(() => stop(server));

  it('captures the same tools as over stdio', async ({ expect }) => {
    const cfg = join(tmp, 'sse.json');
    writeFileSync(cfg, JSON.stringify({ mcpServers: { legacy: { type: 'sse', url: `http://127.0.0.1:${port}/sse` } } }));
    const [spec] = readClientConfig(cfg);
    const [captured, stdio] = await Promise.all([captureServer(spec!, 20_000), everythingStdioNames()]);
    expect(captured.tools.map((t) => t.name)).toEqual(stdio.names);
  });
});
