import { appendFileSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderRun } from '../../src/bench/render.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { writeFixtureResults } from './fixture.ts';

/**
 * A bench run keeps a reports folder drawn from the same results by the same code
 * (src/report/drawn-from.ts), and draws it again when anything it shows may differ.
 */
describe('reports kept when drawn from the same results', () => {
  const results = writeFixtureResults();
  const reports = makeTempDir('tooltax-drawn-from-');
  const draw = async () => {
    const log: string[] = [];
    await renderRun(results, reports, (line) => log.push(line));
    return log.some((l) => l.includes('is kept')) ? 'kept' : 'drawn';
  };
  const tablesMd = () => statSync(join(reports, 'tables.md')).mtimeMs;

  it('draws the first time, keeps the second, and the kept files are the drawn ones', async () => {
    expect(await draw()).toBe('drawn');
    const first = readFileSync(join(reports, 'tables.md'), 'utf8');
    const when = tablesMd();
    expect(await draw()).toBe('kept');
    expect(tablesMd()).toBe(when);
    expect(readFileSync(join(reports, 'tables.md'), 'utf8')).toBe(first);
  }, 120_000);

  it("keeps them when only the run's clock changed", async () => {
    const manifest = join(results, 'run.json');
    const run = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, unknown>;
    writeFileSync(manifest, JSON.stringify({ ...run, finishedAt: '2030-01-01T00:00:00.000Z', seconds: 1 }));
    expect(await draw()).toBe('kept');
  }, 120_000);

  it('draws again when a table, the manifest or a drawn file changed', async () => {
    appendFileSync(join(results, 'tables', firstTable(results)), ' ');
    expect(await draw()).toBe('drawn');
    const manifest = join(results, 'run.json');
    const run = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, unknown>;
    writeFileSync(manifest, JSON.stringify({ ...run, seeds: [7] }));
    expect(await draw()).toBe('drawn');
    expect(await draw()).toBe('kept');
    rmSync(join(reports, 'tooltax.xlsx'));
    expect(await draw()).toBe('drawn');
    appendFileSync(join(reports, 'tables.md'), 'edited\n');
    expect(await draw()).toBe('drawn');
  }, 240_000);
});

function firstTable(results: string): string {
  const run = JSON.parse(readFileSync(join(results, 'run.json'), 'utf8')) as { tableOrder: string[] };
  return `${run.tableOrder[0]}.json`;
}
