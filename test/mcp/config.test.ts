import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readClientConfig, specFromCommandLine, specFromUrl, splitCommandLine, stripJsonComments } from '../../src/mcp/config.ts';
import { redactCommand, redactText, redactUrl } from '../../src/mcp/redact.ts';
import { InputError } from '../../src/util/input-error.ts';

const dir = mkdtempSync(join(tmpdir(), 'tooltax-config-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function config(content: unknown, name = 'config.json'): string {
  const file = join(dir, name);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('splitCommandLine', () => {
  it.each([
    ['npx -y @modelcontextprotocol/server-filesystem /tmp', {}, 'npx', ['-y', '@modelcontextprotocol/server-filesystem', '/tmp']],
    [`node "my dir/server.js" 'a b' c\\ d`, {}, 'node', ['my dir/server.js', 'a b', 'c d']],
    ['A=1 B="two words" uvx mcp-server-git --repository .', { A: '1', B: 'two words' }, 'uvx', ['mcp-server-git', '--repository', '.']],
    [`node -e "console.log(\\"hi\\")"`, {}, 'node', ['-e', 'console.log("hi")']],
    [`cmd ''`, {}, 'cmd', ['']],
  ])('%s', (line, env, command, args) => {
    expect(splitCommandLine(line)).toEqual({ env, command, args });
  });

  it.each([['node "unterminated'], ['   '], ['ONLY=env']])('rejects %j', (line) => {
    expect(() => splitCommandLine(line)).toThrow(/unterminated|no command/);
  });

  it('a bad --from-server line becomes a problem of that server, not a crash', () => {
    expect(specFromCommandLine('node "oops', 1)).toMatchObject({
      origin: '--from-server #2',
      problem: expect.stringContaining('unterminated'),
    });
  });
});

describe('readClientConfig', () => {
  const env = { HOME: '/home/u', GH_TOKEN: 'ghp_abcdefghijklmnop', EMPTY: '' };

  it('reads a Claude Desktop / Cursor mcpServers block', () => {
    const specs = readClientConfig(
      config({
        mcpServers: {
          github: {
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-github'],
            env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_literal_in_config_1234' },
          },
          remote: { url: 'https://example.invalid/mcp', headers: { Authorization: 'Bearer abcdefgh12345678' } },
          old: { command: 'x', disabled: true },
        },
      }),
      env,
    );
    expect(specs.map((s) => [s.name, s.transport])).toEqual([
      ['github', 'stdio'],
      ['remote', 'http'],
    ]);
    expect(specs[0]).toMatchObject({ command: 'npx', env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_literal_in_config_1234' } });
    expect(specs[0]!.secrets).toContain('ghp_literal_in_config_1234');
    expect(specs[1]!.secrets).toEqual(expect.arrayContaining(['Bearer abcdefgh12345678', 'abcdefgh12345678']));
  });

  it('reads a VS Code mcp.json (servers, type, comments, trailing commas) and expands variables', () => {
    const file = config(
      `{
        // VS Code
        "inputs": [{ "type": "promptString", "id": "key" }],
        "servers": {
          "gh": { "type": "stdio", "command": "\${userHome}/bin/gh-mcp", "args": ["--root", "\${workspaceFolder}"], "env": { "TOKEN": "\${env:GH_TOKEN}" } },
          "web": { "type": "http", "url": "http://127.0.0.1:9/mcp", "headers": { "X-Key": "\${input:key}" } },
          "dflt": { "command": "srv", "args": ["\${MISSING:-fallback}", "\${GH_TOKEN}"] },
          "unset": { "command": "srv", "env": { "K": "\${NOT_SET_ANYWHERE}" } },
          "sse": { "type": "sse", "url": "http://127.0.0.1:9/sse" },
        },
      }`,
      join('proj', '.vscode', 'mcp.json'),
    );
    const specs = readClientConfig(file, env);
    const by = Object.fromEntries(specs.map((s) => [s.name, s]));
    expect(by.gh).toMatchObject({
      transport: 'stdio',
      command: '/home/u/bin/gh-mcp',
      args: ['--root', join(dir, 'proj')],
      env: { TOKEN: env.GH_TOKEN },
    });
    expect(by.gh!.problem).toBeUndefined();
    expect(by.gh!.secrets).toContain(env.GH_TOKEN);
    expect(by.web!.problem).toMatch(/headers\.X-Key uses \$\{input:key\}, which VS Code prompts for/);
    expect(by.dflt).toMatchObject({ args: ['fallback', env.GH_TOKEN] });
    expect(by.dflt!.secrets).toContain(env.GH_TOKEN);
    expect(by.unset!.problem).toBe('env.K uses ${NOT_SET_ANYWHERE} but NOT_SET_ANYWHERE is not set');
    expect(by.sse).toMatchObject({ transport: 'sse', url: 'http://127.0.0.1:9/sse' });
  });

  it('reports entry problems per server', () => {
    const specs = readClientConfig(
      config({ mcpServers: { a: { args: ['x'] }, b: { type: 'ws', command: 'x' }, c: { command: 'x', args: 'not-an-array' } } }),
      env,
    );
    expect(specs.map((s) => s.problem)).toEqual([
      'a stdio server needs "command" (a string)',
      'type "ws" is not one of stdio, http, streamable-http, sse',
      'args is a string (12 characters), expected an array of strings',
    ]);
  });

  it.each([
    ['a missing file', null, /found nothing at \/.*\.json$/],
    ['broken JSON', '{"mcpServers": {', /expected valid JSON/],
    [
      'no server block',
      { servers2: {} },
      /expected an "mcpServers" block .* found an object with 1 key, none of them one of these \(found "servers2": did you mean "servers"\?\)$/,
    ],
    ['a non-object block', { mcpServers: [] }, /at \$\.mcpServers: expected an object keyed by server name, found an array of 0/],
    ['only disabled servers', { mcpServers: { a: { command: 'x', disabled: true } } }, /expected at least one enabled server, found none/],
  ])('rejects %s with one line naming the file', (_, content, message) => {
    const file = content === null ? join(dir, 'nope.json') : config(content, `bad-${Math.random().toString(36).slice(2)}.json`);
    let err: unknown;
    try {
      readClientConfig(file, env);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message.startsWith(file)).toBe(true);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toContain('\n');
  });

  it('keeps // and /* inside strings', () => {
    expect(JSON.parse(stripJsonComments('{"u": "http://x/*y*/", /* c */ "v": [1,], // z\n}'))).toEqual({ u: 'http://x/*y*/', v: [1] });
  });
});

describe('redaction', () => {
  it('redacts secret values, values after secret-looking flags, and --flag=value forms', () => {
    const spec = specFromCommandLine(
      'API_KEY=abcd1234efgh node srv.js --token tok-123456 --api-key=k-987654 --verbose --root /data --url https://h/?key=abcd1234efgh',
      0,
    );
    const line = redactCommand(spec.command!, spec.args!, spec.secrets);
    expect(line).toBe("node srv.js --token <redacted> --api-key=<redacted> --verbose --root /data --url 'https://h/?key=<redacted>'");
    for (const s of ['abcd1234efgh', 'tok-123456', 'k-987654']) expect(line).not.toContain(s);
  });

  it('redacts URL credentials and query values', () => {
    expect(redactUrl('https://user:pw@h.example/mcp?token=abc&x=1')).toBe(
      'https://redacted:redacted@h.example/mcp?token=redacted&x=redacted',
    );
    expect(specFromUrl('https://user:pw@h.example/mcp?token=abcdef', 0).secrets).toEqual(expect.arrayContaining(['user', 'pw', 'abcdef']));
  });

  it('replaces the longest secret first and leaves short values alone in free text', () => {
    expect(redactText('key=abcdef and abcdefgh, id 1', ['abcdef', 'abcdefgh', '1'])).toBe('key=<redacted> and <redacted>, id 1');
  });
});
