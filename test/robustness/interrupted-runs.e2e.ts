import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Table } from '../../src/table/table.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { cli, expectOneLineError, running } from './cli-helpers.ts';

/**
 * Whole runs (`npm run test:e2e`): the Pydantic/FastMCP-shaped catalog through the
 * whole bench and its ADOL rows, a second bench into a folder in use, a bench killed with
 * SIGKILL, and `report` on what it left. Bound: RUN_BOUND_MS per bench on a loaded machine.
 */
const RUN_BOUND_MS = 150_000;
const FIXTURE = join('test', 'fixtures', 'pydantic-catalog');
const benchArgs = (dir: string) => [
  'bench',
  '--quick',
  '--catalog',
  join(FIXTURE, 'shop.json'),
  '--tasks',
  join(FIXTURE, 'tasks.jsonl'),
  '--out',
  join(dir, 'results'),
  '--reports',
  join(dir, 'reports'),
];
const table = (dir: string, id: string) => JSON.parse(readFileSync(join(dir, 'results', 'tables', `${id}.json`), 'utf8')) as Table;

async function waitFor(cond: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('whole runs on a $ref catalog, concurrent and interrupted', () => {
  it(
    'runs the Pydantic-shaped catalog through the bench, ADOL rows included, and report accepts it',
    async () => {
      const dir = makeTempDir('tooltax-e2e-pydantic-');
      // A registry and notes the user keeps in the results folder, even beside the run's own files, survive the run.
      const mine = ['aacp/registry.json', 'studies/mine.json', 'events/notes.json', 'calibration/mine.json'].map((f) =>
        join(dir, 'results', f),
      );
      for (const f of mine) {
        mkdirSync(dirname(f), { recursive: true });
        writeFileSync(f, '{"mine":true}\n');
      }
      const r = await cli(benchArgs(dir), RUN_BOUND_MS);
      expect(r.code, r.stderr).toBe(0);
      for (const f of mine) expect(readFileSync(f, 'utf8'), f).toBe('{"mine":true}\n');
      const refs = table(dir, 'catalog-refs');
      expect(refs.rows).toHaveLength(5);
      expect(refs.rows.every((row) => row.refs === row.resolved)).toBe(true);
      // Every ADOL pipeline ran on every turn, and $ref dedup saved tokens on this catalog.
      const mechanisms = table(dir, 'adol-mechanisms').rows;
      for (const id of ['adol-ref-internal', 'adol-ref-external', 'adol-short', 'adol-combined']) {
        const row = mechanisms.find((r) => r.pipeline === id);
        expect(row?.turns, id).toBe(5);
      }
      expect(mechanisms.find((r) => r.pipeline === 'adol-ref-internal')!.diff as number).toBeLessThan(0);
      const adolStatic = table(dir, 'adol-static');
      expect(adolStatic.rows[0]!.lossless).toBe('yes');
      expect(adolStatic.rows[0]!.defsInternal as number).toBeGreaterThan(0);
      const report = await cli(['report', '--results', join(dir, 'results'), '--reports', join(dir, 'again')]);
      expect(report.code, report.stderr).toBe(0);
      // A reports folder another run is writing is refused like a results folder.
      const busy = join(dir, 'busy-reports');
      mkdirSync(busy);
      writeFileSync(join(busy, '.tooltax-lock'), JSON.stringify({ pid: process.pid, startedAt: 'now', command: 'bench' }));
      expectOneLineError(
        await cli(['report', '--results', join(dir, 'results'), '--reports', busy]),
        new RegExp(`busy-reports: .*in use by pid ${process.pid} \\(bench`),
      );
    },
    RUN_BOUND_MS * 2,
  );

  it(
    'refuses a second bench into a folder in use, and a report of a run killed with SIGKILL; the next bench takes the folder over',
    async () => {
      const dir = makeTempDir('tooltax-e2e-kill-');
      const first = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...benchArgs(dir)], { stdio: 'ignore' });
      const exited = new Promise((r) => first.on('exit', r));
      await waitFor(() => existsSync(join(dir, 'results', '.tooltax-lock')), RUN_BOUND_MS);
      const second = await cli(benchArgs(dir));
      expectOneLineError(second, new RegExp(`in use by pid ${first.pid} \\(bench`));
      first.kill('SIGKILL');
      await exited;
      expectOneLineError(
        await cli(['report', '--results', join(dir, 'results'), '--reports', join(dir, 'r')]),
        /run\.json: .*no bench run finished in this folder; run `npm run bench` first/,
      );
      const again = await cli(benchArgs(dir), RUN_BOUND_MS);
      expect(again.code, again.stderr).toBe(0);
      expect((await cli(['report', '--results', join(dir, 'results'), '--reports', join(dir, 'r')])).code).toBe(0);
    },
    RUN_BOUND_MS * 3,
  );

  it(
    '`npm run bench` stops when npm gets SIGTERM (scripts/tooltax.mjs passes it on, or stops the run once left behind)',
    async () => {
      const dir = makeTempDir('tooltax-e2e-npm-');
      const npm = spawn('npm', ['run', '--silent', ...benchArgs(dir).flatMap((a, i) => (i === 0 ? [a, '--'] : [a]))], { stdio: 'ignore' });
      const lock = join(dir, 'results', '.tooltax-lock');
      await waitFor(() => existsSync(lock), RUN_BOUND_MS);
      const { pid } = JSON.parse(readFileSync(lock, 'utf8')) as { pid: number };
      expect(pid).not.toBe(npm.pid);
      npm.kill('SIGTERM');
      await waitFor(() => !running(pid), 10_000);
    },
    RUN_BOUND_MS * 2,
  );
});
