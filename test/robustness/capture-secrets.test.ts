import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { running } from './cli-helpers.ts';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load.ts';
import { captureServer } from '../../src/mcp/capture.ts';
import { readClientConfig, specFromCommandLine } from '../../src/mcp/config.ts';
import { captureToDir } from '../../src/mcp/dump.ts';
import { InputError } from '../../src/util/input-error.ts';
import { makeTempDir } from '../helpers/temp.ts';

/**
 * Secrets in capture errors and capture outputs, and the capture's process handling, in-process:
 * a secret a server echoes in its name, a config parse error next to a secret, a symlink to a
 * private file, and a launcher that does not pass SIGTERM on to the server it started.
 */
const PAGED = join(process.cwd(), 'test', 'fixtures', 'mcp', 'paged-server.mjs');
const SECRET = 'sk-live-9f8e7d6c5b4a39281706';
const dir = makeTempDir('tooltax-capture-secrets-');

/** The message of what `run` throws (an InputError), or 'no error'. */
function inputErrorOf(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    const message = (err as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    return message;
  }
  return 'no error';
}

describe('secrets in capture outputs and errors', () => {
  it("keeps an env secret the server echoes as its serverInfo.name out of the dump's file name, its server field and the log", async () => {
    const out = join(dir, 'named');
    const lines: string[] = [];
    const spec = specFromCommandLine(`TOOLTAX_TEST_SECRET=${SECRET} '${process.execPath}' ${PAGED} name-secret`, 0);
    const outcome = await captureToDir([spec], out, {
      timeoutMs: 20_000,
      force: false,
      log: (l) => lines.push(l),
      warn: (l) => lines.push(l),
    });
    expect(outcome.failures).toEqual([]);
    const files = readdirSync(out);
    expect(files).toHaveLength(1);
    expect(files[0]).not.toContain(SECRET);
    const text = readFileSync(join(out, files[0]!), 'utf8');
    expect(text).not.toContain(SECRET);
    expect(JSON.parse(text).server).toBe('<redacted>');
    expect(outcome.written[0]!.server).not.toContain(SECRET);
    expect(lines.join('\n')).not.toContain(SECRET);
    expect(lines.join('\n')).toMatch(/sent \d+ secret value\(s\) in its own data/);
  });

  it('reports a config parse error by file and position, without the text V8 quotes next to it', () => {
    const padding = ' '.repeat(60);
    const file = join(dir, 'broken-mcp.json');
    writeFileSync(file, `{"mcpServers": {"gh": {"command": "npx",${padding} "env": {"GITHUB_TOKEN": ${SECRET}}}}}`);
    const message = inputErrorOf(() => readClientConfig(file));
    expect(message).toContain(file);
    expect(message).toMatch(/expected valid JSON \(comments allowed\)/);
    expect(message).not.toContain(SECRET.slice(0, 6));
    expect(message).not.toContain('GITHUB_TOKEN');
  });

  it('keeps the keys and values of a symlinked private file out of config and catalog errors', () => {
    const privateFile = join(dir, 'credentials.json');
    writeFileSync(privateFile, JSON.stringify({ aws_secret_access_key: SECRET, mcpServers: `${SECRET}-as-block` }));
    const wrongShape = join(dir, 'other-credentials.json');
    writeFileSync(wrongShape, JSON.stringify({ client_secret_for_prod: SECRET }));
    const config = join(dir, 'linked-mcp.json');
    symlinkSync(privateFile, config);
    const linkedOther = join(dir, 'linked-other.json');
    symlinkSync(wrongShape, linkedOther);
    const catalogDir = makeTempDir('tooltax-capture-secrets-catalog-');
    symlinkSync(wrongShape, join(catalogDir, 'tools.json'));
    const toolNameIsSecret = join(dir, 'tool-name.json');
    writeFileSync(toolNameIsSecret, JSON.stringify({ tools: [{ name: SECRET, inputSchema: null }] }));

    const messages = [
      inputErrorOf(() => readClientConfig(config)),
      inputErrorOf(() => readClientConfig(linkedOther)),
      inputErrorOf(() => loadCatalog(catalogDir)),
      inputErrorOf(() => loadCatalog(toolNameIsSecret)),
    ];
    expect(messages[0]).toMatch(
      /linked-mcp\.json: at \$\.mcpServers: expected an object keyed by server name, found a string \(\d+ characters\)$/,
    );
    expect(messages[1]).toMatch(
      /linked-other\.json: at \$: expected an "mcpServers" block .*, found an object with 1 key, none of them one of these$/,
    );
    expect(messages[2]).toMatch(/tools\.json: at \$: expected an array of tools, .*found an object with 1 key, none of them one of these$/);
    expect(messages[3]).toMatch(/inputSchema: expected a JSON Schema object/);
    for (const m of messages) {
      expect(m).not.toContain(SECRET.slice(0, 8));
      expect(m).not.toMatch(/aws_secret_access_key|client_secret_for_prod/);
    }
  });
});

describe('capture process handling', () => {
  const started: number[] = [];
  afterAll(() => {
    // Only the servers this test started, by their pid, if a failed assertion left one.
    for (const pid of started) if (running(pid)) process.kill(pid, 'SIGKILL');
  });

  it('stops the server a launcher started, when the launcher does not pass SIGTERM on, once the capture is done', async () => {
    const pidFile = join(dir, 'server.pid');
    // sh forks the server (a command follows it) and dies of SIGTERM alone; the server ignores EOF.
    const line = `TOOLTAX_TEST_PID_FILE=${pidFile} TOOLTAX_TEST_LINGER=1 sh -c '"${process.execPath}" "${PAGED}" paged; exit 1'`;
    const t0 = Date.now();
    const captured = await captureServer(specFromCommandLine(line, 0), 20_000);
    expect(captured.tools).toHaveLength(7);
    expect(existsSync(pidFile)).toBe(true);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    started.push(pid);
    // Closed within its grace periods (stdin, SIGTERM, SIGKILL: 1 s each), the server with it.
    const until = Date.now() + 1_000;
    while (running(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(running(pid), `server pid ${pid} still running ${Date.now() - t0} ms after the capture started`).toBe(false);
  });
});
