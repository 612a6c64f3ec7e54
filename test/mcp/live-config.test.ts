import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { serializeToolDefinition } from '../../src/catalog/types.ts';
import { budgetCommand } from '../../src/commands/budget.ts';
import { createTransport, DEFAULT_TIMEOUT_MS } from '../../src/mcp/capture.ts';
import { readClientConfig } from '../../src/mcp/config.ts';
import { captureExitCode, captureToDir } from '../../src/mcp/dump.ts';
import { countTokens, DEFAULT_TOKENIZER } from '../../src/tokens/counter.ts';
import { everythingStdioNames, readDump, runCli, sdkToolNames, serverEntry } from './helpers.ts';

/**
 * Real MCP servers from npm (devDependencies), started as a client would start them. The
 * expected tool lists come from an independent SDK client asking the same server, never from
 * figures written here. (Streamable HTTP, SSE, paging and failures: live-remote.test.ts.)
 *
 * One `catalog --from-config` run captures the three servers; the tests after it only read
 * what it wrote (the overwrite test works on a copy), so they run concurrently.
 */
const SECRET = 'sk-test-7f3a9c2e51d84b06a1e2c3d4';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'tooltax-live-test-'));
  writeFileSync(join(tmp, 'readme.txt'), 'x');
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.concurrent('catalog --from-config with three real npm servers over stdio', () => {
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

  it('writes one dump per server that the loader reads, with every tool the server lists', async ({ expect }) => {
    expect(result.stderr).not.toMatch(/error/i);
    expect(result.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['everything.json', 'filesystem.json', 'memory.json']);
    const catalog = loadCatalog(out);
    expect(catalog.servers.sort()).toEqual(['everything', 'filesystem', 'memory']);
    const [filesystem, memory, everything] = await Promise.all([
      sdkToolNames(process.execPath, [serverEntry('server-filesystem'), tmp]),
      sdkToolNames(process.execPath, [serverEntry('server-memory')], { MEMORY_FILE_PATH: join(tmp, 'memory.jsonl') }),
      everythingStdioNames(),
    ]);
    for (const [server, { names, serverName }] of Object.entries({ filesystem, memory, everything })) {
      expect(names.length).toBeGreaterThan(0);
      expect(catalog.tools.filter((t) => t.server === server).map((t) => t.name)).toEqual(names);
      const dump = readDump(join(out, `${server}.json`));
      expect(dump.provenance.serverInfo.name).toBe(serverName);
      expect(dump.provenance.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(dump.provenance.transport).toBe('stdio');
      expect(Date.parse(dump.provenance.capturedAt)).not.toBeNaN();
    }
  });

  it('prints the footprint of the captured tools, measured as tools/list carries them', ({ expect }) => {
    const catalog = loadCatalog(out);
    const total = catalog.tools.reduce((s, t) => s + countTokens(serializeToolDefinition(t.definition)), 0);
    const row = result.stdout.split('\n').find((l) => l.startsWith('| total |'))!;
    expect(row.split('|').map((c) => c.trim())).toContain(total.toLocaleString('en-US'));
  });

  it('never writes or prints a secret value; env variables are recorded by name', ({ expect }) => {
    const everything = readDump(join(out, 'everything.json'));
    expect(everything.provenance.env).toEqual(['EVERYTHING_TOKEN']);
    expect(everything.provenance.target).toContain('--api-key=<redacted>');
    expect(readDump(join(out, 'memory.json')).provenance.env).toEqual(['API_KEY', 'MEMORY_FILE_PATH']);
    for (const f of readdirSync(out)) expect(readFileSync(join(out, f), 'utf8')).not.toContain(SECRET);
    expect(result.stdout).not.toContain(SECRET);
    expect(result.stderr).not.toContain(SECRET);
  });

  it('passes the env a config names to the child (the server reports it back)', async ({ expect }) => {
    const [spec] = readClientConfig(config).filter((s) => s.name === 'everything');
    const { transport } = await createTransport(spec!);
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

  // In process (the refusal and the replacement are the capture library's; exit status 2 of a
  // spawned `catalog` that captures nothing: live-remote.test.ts).
  it('never overwrites a dump silently; --force replaces it', async ({ expect }) => {
    // A copy of the captured dumps, so the tests reading `out` meanwhile see the first capture.
    const again = join(tmp, 'captured-again');
    cpSync(out, again, { recursive: true });
    const capture = async (force: boolean) => {
      const lines: string[] = [];
      const outcome = await captureToDir(readClientConfig(config), again, {
        timeoutMs: 30_000,
        force,
        log: (l) => lines.push(l),
        warn: (l) => lines.push(l),
      });
      return { code: captureExitCode(outcome), stderr: lines.join('\n') };
    };
    const refused = await capture(false);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/server "filesystem" \(.*mcpServers\.filesystem\): .*filesystem\.json exists; pass --force/);
    const forced = await capture(true);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain('(replaced)');
  });

  // In process (the budget command's exit status and output through a spawned CLI: test/budget/budget.test.ts).
  it('runs the captured dumps through the budget gate: 0 at the measured total, 1 one token below', async ({ expect }) => {
    const total = loadCatalog(out).tools.reduce((s, t) => s + countTokens(serializeToolDefinition(t.definition)), 0);
    const budget = async (maxToolTokens: number, format: 'json' | 'markdown') => {
      let stdout = '';
      const { exitCode } = await budgetCommand(
        { catalog: [out], maxToolTokens, tokenizer: DEFAULT_TOKENIZER, [format]: true, timeout: DEFAULT_TIMEOUT_MS / 1000 },
        (text) => (stdout += text),
      );
      return { code: exitCode, stdout };
    };
    const ok = await budget(total, 'json');
    expect(ok.code).toBe(0);
    const report = JSON.parse(ok.stdout) as { total: { tokens: number }; pass: boolean };
    expect(report.total.tokens).toBe(total);
    const over = await budget(total - 1, 'markdown');
    expect(over.code).toBe(1);
    expect(over.stdout).toContain('❌ over budget');
  });
});
