import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../mcp/helpers.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { cli, expectOneLineError, running } from './cli-helpers.ts';

/**
 * `live` against an endpoint that cannot be used, and `catalog --from-server` with a launcher
 * that does not pass SIGTERM on, through the CLI (`npm run test:e2e`; the same cases
 * in-process are in live-endpoint.test.ts and capture-secrets.test.ts).
 */
const PAGED = join(process.cwd(), 'test', 'fixtures', 'mcp', 'paged-server.mjs');
const liveArgs = (baseUrl: string, out: string) => [
  'live',
  '--provider',
  'openai',
  '--model',
  'stand-in',
  '--price',
  '0,0',
  '--base-url',
  baseUrl,
  '--tasks',
  '1',
  '--pipelines',
  'b1-full-schema',
  '--encoder',
  'tfidf',
  '--retries',
  '0',
  '--out',
  out,
];

describe.concurrent('live and capture through the CLI', () => {
  const dir = makeTempDir('tooltax-e2e-live-');
  const env = { ...process.env, OPENAI_API_KEY: 'sk-e2e-not-a-secret-0123' };

  it('live: a file: --base-url is one line and exit 2, before any work', async () => {
    expectOneLineError(
      await cli(liveArgs('file:///etc/passwd', join(dir, 'a')), undefined, env),
      /expected an http\(s\) URL, found a file: URL/,
    );
    expect(existsSync(join(dir, 'a'))).toBe(false);
  });

  it('live: nothing listening at --base-url is one line naming the cause, exit 2', async () => {
    const port = await freePort();
    const r = await cli(liveArgs(`http://127.0.0.1:${port}/v1`, join(dir, 'b')), undefined, env);
    expectOneLineError(r, /^error: live: cannot reach the endpoint: http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: .*ECONNREFUSED/);
    expect(r.stdout).not.toMatch(/tasks succeeded/);
  });

  it('catalog --from-server: a launcher that does not pass SIGTERM on does not keep the CLI alive', async () => {
    const pidFile = join(dir, 'server.pid');
    const line = `TOOLTAX_TEST_PID_FILE=${pidFile} TOOLTAX_TEST_LINGER=1 sh -c '"${process.execPath}" "${PAGED}" paged; exit 1'`;
    // A lingering server kept alive would hold the CLI past cli()'s bound, which fails the test.
    const r = await cli(['catalog', '--from-server', line, '--timeout', '20', '--out', join(dir, 'captured')]);
    expect(r.code, r.stderr).toBe(0);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(running(pid)).toBe(false);
  });
});
