import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { cliInProcess, expectOneLine } from '../helpers/cli-in-process.ts';
import { makeTempDir } from '../helpers/temp.ts';

/**
 * What a user types first: files given without --catalog, a mistyped command, a file saved with
 * a byte order mark, `report` before any bench, outputs named from another folder, a second
 * `lint --fix` into the same folder, and `--version`.
 */
const GITHUB = 'catalogs/real/github.json';
/** The file lint --fix writes for it: the server's name. */
const DUMP = 'github-mcp-server.json';
const dir = makeTempDir('tooltax-first-run-');

describe('first-run mistakes get a line that says what to type', () => {
  it('budget with a file but no --catalog', async () => {
    expectOneLine(
      await cliInProcess(['budget', 'mytools.json']),
      /budget takes no positional arguments; did you mean --catalog mytools\.json\?/,
    );
  });
  it('lint with two files but no --catalog', async () => {
    expectOneLine(await cliInProcess(['lint', 'a.json', 'b.json']), /did you mean --catalog a\.json,b\.json\?/);
  });
  it('a mistyped command names the nearest', async () => {
    expectOneLine(
      await cliInProcess(['budgett']),
      /unknown command 'budgett' \(did you mean budget\?\); the commands are catalog, budget, lint/,
    );
  });
  it('report where no bench ever finished says what to run', async () => {
    const empty = join(dir, 'no-run');
    mkdirSync(empty);
    expectOneLine(
      await cliInProcess(['report', '--results', empty, '--reports', join(dir, 'no-run-reports')]),
      /no bench run finished in this folder; run `npm run bench` first, or name a finished run with --results <dir>/,
    );
  });
  it('--version prints the package version', async () => {
    const r = await cliInProcess(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe((JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version);
  });
});

describe('input files with a UTF-8 byte order mark are read', () => {
  it('a dump saved by a Windows editor', async () => {
    const file = join(dir, 'bom.json');
    writeFileSync(file, `\uFEFF${readFileSync(GITHUB, 'utf8')}`);
    const plain = await cliInProcess(['budget', '--catalog', GITHUB, '--json']);
    const bom = await cliInProcess(['budget', '--catalog', file, '--json']);
    expect(bom.code, bom.stderr).toBe(0);
    const total = (r: { stdout: string }) => (JSON.parse(r.stdout) as { total: { tokens: number } }).total.tokens;
    expect(total(bom)).toBe(total(plain));
  });
});

describe('lint --fix', () => {
  it('refuses a folder that holds files, before measuring, unless --force', async () => {
    const out = join(dir, 'fixed');
    const args = ['lint', '--catalog', GITHUB, '--fail-on', 'never', '--fix', out];
    expect((await cliInProcess(args)).code).toBe(0);
    const written = readFileSync(join(out, DUMP), 'utf8');
    writeFileSync(join(out, DUMP), 'the user edited this');
    const again = await cliInProcess(args);
    expectOneLine(again, /--fix .*fixed already holds files; choose a new folder, or add --force/);
    expect(again.stdout).toBe('');
    expect(readFileSync(join(out, DUMP), 'utf8')).toBe('the user edited this');
    expect((await cliInProcess([...args, '--force'])).code).toBe(0);
    expect(readFileSync(join(out, DUMP), 'utf8')).toBe(written);
  });

  it('reports a name listed twice as a finding instead of refusing the file', async () => {
    const dump = JSON.parse(readFileSync(GITHUB, 'utf8')) as { tools: unknown[] };
    const file = join(dir, 'twice.json');
    writeFileSync(file, JSON.stringify({ ...dump, tools: [...dump.tools, dump.tools[0]] }));
    const r = await cliInProcess(['lint', '--catalog', file, '--json', '--fail-on', 'error']);
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout) as { tools: number; findings: { rule: string; tool: string; recoverable: number }[] };
    const dup = report.findings.filter((f) => f.rule === 'duplicate-name');
    expect(dup).toHaveLength(1);
    expect(dup[0]!.recoverable).toBeGreaterThan(0);
    expect(report.tools).toBe(dump.tools.length);
  });
});

describe('output paths are read from the folder the command was typed in, like inputs', () => {
  it('lint --fix and budget --badge', async () => {
    const typedIn = join(dir, 'typed-in');
    mkdirSync(typedIn);
    vi.stubEnv('TOOLTAX_USER_CWD', typedIn);
    try {
      const catalog = relative(typedIn, GITHUB);
      expect((await cliInProcess(['lint', '--catalog', catalog, '--fail-on', 'never', '--fix', 'fixed'])).code).toBe(0);
      expect((await cliInProcess(['budget', '--catalog', catalog, '--badge', 'badge.json'])).code).toBe(0);
    } finally {
      vi.unstubAllEnvs();
    }
    expect(existsSync(join(typedIn, 'fixed', DUMP))).toBe(true);
    expect(existsSync(join(typedIn, 'badge.json'))).toBe(true);
    expect(existsSync('fixed')).toBe(false);
    expect(existsSync('badge.json')).toBe(false);
  });
});
