import { makeTempDir } from '../helpers/temp.ts';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, it } from 'vitest';
import { CHARTS } from '../../src/report/charts/registry.ts';
import { FIXTURE_TABLES } from './fixture.ts';
import { writeFixtureResults } from './fixture.ts';

const run = promisify(execFile);

// Two independent CLI runs: concurrently.
describe.concurrent('`npm run report` (tsx src/cli.ts report)', () => {
  it('re-renders every report from an existing results directory, without the bench', async ({ expect }) => {
    const results = writeFixtureResults();
    const reports = makeTempDir('tooltax-report-cli-');
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', 'report', '--results', results, '--reports', reports],
      { cwd: process.cwd() },
    );
    expect(stdout).toContain(`reports written to ${reports}`);
    expect(stdout).toMatch(/report: chart PNGs drawn with @resvg\/resvg-js [\d.]+, font DejaVu Sans from assets\/fonts/);
    const expected = [
      'tables.md',
      'tooltax.xlsx',
      'index.html',
      ...FIXTURE_TABLES.map((t) => `csv/${t.id}.csv`),
      'vendor/vega-embed.js',
      ...CHARTS.flatMap((c) => [`charts/${c.id}.vl.json`, `charts/${c.id}.svg`, `charts/${c.id}.png`]),
    ];
    for (const f of expected) expect(existsSync(join(reports, f)), f).toBe(true);
    expect(readFileSync(join(reports, 'tables.md'), 'utf8')).toContain('success % †');
    // The results directory is only read.
    expect(existsSync(join(results, 'index.html'))).toBe(false);
  });

  it('fails with a clear message when the results directory holds no finished run', async ({ expect }) => {
    const empty = makeTempDir('tooltax-report-empty-');
    const failed = await run(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', 'report', '--results', empty, '--reports', join(empty, 'out')],
      { cwd: process.cwd() },
    ).catch((e: { code: number; stderr: string }) => e);
    expect((failed as { code: number }).code).toBe(2);
    expect((failed as { stderr: string }).stderr).toMatch(/^error: .*run\.json: .*expected the manifest of a finished bench run/m);
  });
});
