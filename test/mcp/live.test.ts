import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { serializeToolDefinition } from '../../src/catalog/types.ts';
import { captureServer, createTransport } from '../../src/mcp/capture.ts';
import { readClientConfig, specFromCommandLine, specFromUrl } from '../../src/mcp/config.ts';
import { captureExitCode, captureToDir, type CaptureDump } from '../../src/mcp/dump.ts';
import { countTokens } from '../../src/tokens/counter.ts';
import { freePort, runCli, serverEntry, startUntil, stop } from './helpers.ts';

/**
 * Real MCP servers from npm (devDependencies), started as a client would start them. The
 * expected tool lists come from an independent SDK client asking the same server, never from
 * figures written here.
 */
const SECRET = 'sk-test-7f3a9c2e51d84b06a1e2c3d4';
const HEADER_SECRET = 'hdr-secret-0b1c2d3e4f5a6b7c';
const PAGED = join(process.cwd(), 'test', 'fixtures', 'mcp', 'paged-server.mjs');

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'tooltax-live-test-'));
  writeFileSync(join(tmp, 'readme.txt'), 'x');
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Tool names as the SDK's own client lists them. */
async function sdkToolNames(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ names: string[]; serverName: string }> {
  const client = new Client({ name: 'test', version: '0' });
  const transport = new StdioClientTransport({
    command,
    args,
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'pipe',
  });
  await client.connect(transport);
  try {
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
    } while (cursor);
    return { names, serverName: client.getServerVersion()!.name };
  } finally {
    await client.close();
  }
}

function readDump(file: string): CaptureDump {
  return JSON.parse(readFileSync(file, 'utf8')) as CaptureDump;
}

describe('catalog --from-config with three real npm servers over stdio', () => {
  let out: string;
  let config: string;
  let result: Awaited<ReturnType<typeof runCli>>;

  beforeAll(async () => {
    out = join(tmp, 'captured');
    config = join(tmp, 'claude_desktop_config.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          filesystem: { command: process.execPath, args: [serverEntry('server-filesystem'), tmp] },
          memory: {
            command: process.execPath,
            args: [serverEntry('server-memory')],
            env: { MEMORY_FILE_PATH: join(tmp, 'memory.jsonl'), API_KEY: SECRET },
          },
          everything: {
            command: process.execPath,
            args: [serverEntry('server-everything'), 'stdio', `--api-key=${SECRET}`],
            env: { EVERYTHING_TOKEN: SECRET },
          },
        },
      }),
    );
    result = await runCli(['catalog', '--from-config', config, '--out', out]);
  });

  it('writes one dump per server that the loader reads, with every tool the server lists', async () => {
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['everything.json', 'filesystem.json', 'memory.json']);
    const catalog = loadCatalog(out);
    expect(catalog.servers.sort()).toEqual(['everything', 'filesystem', 'memory']);
    const expected = {
      filesystem: await sdkToolNames(process.execPath, [serverEntry('server-filesystem'), tmp]),
      memory: await sdkToolNames(process.execPath, [serverEntry('server-memory')], { MEMORY_FILE_PATH: join(tmp, 'memory.jsonl') }),
      everything: await sdkToolNames(process.execPath, [serverEntry('server-everything'), 'stdio']),
    };
    for (const [server, { names, serverName }] of Object.entries(expected)) {
      expect(names.length).toBeGreaterThan(0);
      expect(catalog.tools.filter((t) => t.server === server).map((t) => t.name)).toEqual(names);
      const dump = readDump(join(out, `${server}.json`));
      expect(dump.provenance.serverInfo.name).toBe(serverName);
      expect(dump.provenance.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(dump.provenance.transport).toBe('stdio');
      expect(Date.parse(dump.provenance.capturedAt)).not.toBeNaN();
    }
  });

  it('prints the footprint of the captured tools, measured as tools/list carries them', () => {
    const catalog = loadCatalog(out);
    const total = catalog.tools.reduce((s, t) => s + countTokens(serializeToolDefinition(t.definition)), 0);
    const row = result.stdout.split('\n').find((l) => l.startsWith('| total |'))!;
    expect(row.split('|').map((c) => c.trim())).toContain(total.toLocaleString('en-US'));
  });

  it('never writes or prints a secret value; env variables are recorded by name', () => {
    const everything = readDump(join(out, 'everything.json'));
    expect(everything.provenance.env).toEqual(['EVERYTHING_TOKEN']);
    expect(everything.provenance.target).toContain('--api-key=<redacted>');
    expect(readDump(join(out, 'memory.json')).provenance.env).toEqual(['API_KEY', 'MEMORY_FILE_PATH']);
    for (const f of readdirSync(out)) expect(readFileSync(join(out, f), 'utf8')).not.toContain(SECRET);
    expect(result.stdout).not.toContain(SECRET);
    expect(result.stderr).not.toContain(SECRET);
  });

  it('passes the env a config names to the child (the server reports it back)', async () => {
    const [spec] = readClientConfig(config).filter((s) => s.name === 'everything');
    const { transport } = createTransport(spec!);
    const client = new Client({ name: 'test', version: '0' });
    await client.connect(transport);
    try {
      const res = await client.callTool({ name: 'get-env', arguments: {} });
      const text = JSON.stringify(res.content);
      expect(text).toContain('EVERYTHING_TOKEN');
      expect(text).toContain(SECRET);
    } finally {
      await client.close();
    }
  });

  it('never overwrites a dump silently; --force replaces it', async () => {
    const again = await runCli(['catalog', '--from-config', config, '--out', out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/server "filesystem" \(.*mcpServers\.filesystem\): .*filesystem\.json exists; pass --force/);
    const forced = await runCli(['catalog', '--from-config', config, '--out', out, '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain('(replaced)');
  });

  it('runs the captured dumps through the budget gate: 0 at the measured total, 1 one token below', async () => {
    const total = loadCatalog(out).tools.reduce((s, t) => s + countTokens(serializeToolDefinition(t.definition)), 0);
    const ok = await runCli(['budget', '--catalog', out, '--max-tool-tokens', String(total), '--json']);
    expect(ok.code).toBe(0);
    const report = JSON.parse(ok.stdout) as { total: { tokens: number }; pass: boolean };
    expect(report.total.tokens).toBe(total);
    const over = await runCli(['budget', '--catalog', out, '--max-tool-tokens', String(total - 1), '--markdown']);
    expect(over.code).toBe(1);
    expect(over.stdout).toContain('❌ over budget');
  });
});

describe('Streamable HTTP on 127.0.0.1 (server-everything streamableHttp)', () => {
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

  it('captures the same tools as over stdio, and budget --from-url measures them', async () => {
    const captured = await captureServer(specFromUrl(url, 0), 20_000);
    const stdio = await sdkToolNames(process.execPath, [serverEntry('server-everything'), 'stdio']);
    expect(captured.tools.map((t) => t.name)).toEqual(stdio.names);
    expect(captured.serverInfo.name).toBe(stdio.serverName);
    const run = await runCli(['budget', '--from-url', `${url}?token=${SECRET}`, '--max-tool-tokens', '1000000', '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { total: { tools: number; tokens: number } };
    expect(report.total.tools).toBe(stdio.names.length);
    expect(report.total.tokens).toBe(captured.tools.reduce((s, t) => s + countTokens(serializeToolDefinition(t)), 0));
    expect(run.stdout + run.stderr).not.toContain(SECRET);
  });

  it('sends config headers and keeps their values out of the dump', async () => {
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

describe('paging, broken servers and failures (an SDK server of our own, and commands that are no server)', () => {
  const node = (args: string) => `'${process.execPath}' ${args}`;

  it('follows nextCursor over every page', async () => {
    const c = await captureServer(specFromCommandLine(node(`${PAGED} paged`), 0), 20_000);
    const sdk = await sdkToolNames(process.execPath, [PAGED, 'paged']);
    expect(c.pages).toBeGreaterThan(1);
    expect(c.tools.map((t) => t.name)).toEqual(sdk.names);
    expect(c.instructions).toBe('Test server.');
  });

  it('names each failing server in one line and still captures the others', async () => {
    const out = join(tmp, 'mixed');
    const specs = [
      specFromCommandLine(node(`${PAGED} paged`), 0),
      specFromCommandLine('tooltax-no-such-command-xyz --flag', 1),
      specFromCommandLine(node('-e "process.exit(3)"'), 2),
      specFromCommandLine(node('-e "setInterval(() => {}, 1000)"'), 3),
      specFromCommandLine(node(`${PAGED} invalid`), 4),
      specFromCommandLine(node(`${PAGED} loop`), 5),
    ];
    const warnings: string[] = [];
    const outcome = await captureToDir(specs, out, { timeoutMs: 3_000, force: false, log: () => {}, warn: (l) => warnings.push(l) });
    expect(outcome.written.map((w) => w.server)).toEqual(['paged-test-server']);
    expect(outcome.failures).toHaveLength(5);
    expect(outcome.failures[0]).toBe('server --from-server #2: cannot start "tooltax-no-such-command-xyz" (command not found)');
    expect(outcome.failures[1]).toMatch(/^server --from-server #3: the server closed the connection during initialize/);
    expect(outcome.failures[2]).toMatch(/^server --from-server #4: timed out after 3 s during initialize/);
    expect(outcome.failures[3]).toMatch(
      /^server --from-server #5: invalid tools\/list result on page 2: at \$\.tools\[0\]\.inputSchema: expected a JSON Schema object/,
    );
    expect(outcome.failures[4]).toMatch(
      /^server --from-server #6: invalid tools\/list result on page 2: nextCursor "again" was already returned/,
    );
    for (const f of outcome.failures) expect(f).not.toContain('\n');
    expect(warnings).toEqual(outcome.failures.map((f) => `error: ${f}`));
    expect(captureExitCode(outcome)).toBe(1);
  });

  it('exits 2 when no server could be captured, and budget refuses a partial set', async () => {
    const none = await runCli(['catalog', '--from-server', 'tooltax-no-such-command-xyz', '--out', join(tmp, 'none')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('error: server --from-server #1: cannot start "tooltax-no-such-command-xyz"');
    expect(existsSync(join(tmp, 'none'))).toBe(false);
    const partial = await runCli([
      'budget',
      '--from-server',
      `${process.execPath} ${PAGED}`,
      '--from-server',
      'tooltax-no-such-command-xyz',
      '--max-tool-tokens',
      '100000',
    ]);
    expect(partial.code).toBe(2);
    expect(partial.stderr).toMatch(/error: budget: 1 server\(s\) could not be captured/);
    expect(partial.stdout).toBe('');
  });

  it('replaces a secret the server echoes in its own data, and counts it', async () => {
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
});

describe('legacy SSE (server-everything sse, config type "sse")', () => {
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

  it('captures the same tools as over stdio', async () => {
    const cfg = join(tmp, 'sse.json');
    writeFileSync(cfg, JSON.stringify({ mcpServers: { legacy: { type: 'sse', url: `http://127.0.0.1:${port}/sse` } } }));
    const [spec] = readClientConfig(cfg);
    const captured = await captureServer(spec!, 20_000);
    const stdio = await sdkToolNames(process.execPath, [serverEntry('server-everything'), 'stdio']);
    expect(captured.tools.map((t) => t.name)).toEqual(stdio.names);
  });
});
