import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireRunLock, LOCK_FILE } from '../../src/results/lock.ts';
import { MANIFEST_FILE, type RunManifest } from '../../src/results/manifest.ts';
import { readTables } from '../../src/results/read.ts';
import { checkCompleteRun, runFiles, startRun } from '../../src/results/run-files.ts';
import { writeManifest, writeTableResult, writeTurnRecords } from '../../src/results/write.ts';
import { InputError } from '../../src/util/input-error.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { FIXTURE_RUN_INFO } from '../report/fixture.ts';

const MANIFEST: RunManifest = { ...FIXTURE_RUN_INFO, tableOrder: ['t1'] };

/** A finished run: one table, one turn file, and the manifest listing them. */
function finishedRun(): string {
  const dir = makeTempDir('tooltax-run-');
  writeTableResult(dir, { id: 't1', title: 'T1', columns: [], rows: [] });
  writeTurnRecords(dir, 'b1', 42, [{ turn: 0 }]);
  writeManifest(dir, { ...MANIFEST, files: runFiles(dir) });
  return dir;
}

const refusal = (dir: string): string => {
  try {
    checkCompleteRun(dir);
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as Error).message;
  }
  return 'accepted';
};

describe('a results folder holds exactly one complete run', () => {
  it('accepts a finished run', () => {
    expect(refusal(finishedRun())).toBe('accepted');
  });

  it('refuses a run that did not finish (no run.json)', () => {
    const dir = finishedRun();
    rmSync(join(dir, MANIFEST_FILE));
    expect(refusal(dir)).toMatch(/run\.json: .*expected the manifest of a finished bench run, found none/);
  });

  it('ignores files no manifest lists (a run that did not finish, a live run, the user): reports read only the listed tables', () => {
    const dir = finishedRun();
    writeTurnRecords(dir, 'b2', 43, [{ turn: 0 }]);
    writeTableResult(dir, { id: 'live-tokens', title: 'Live', columns: [], rows: [] });
    expect(refusal(dir)).toBe('accepted');
    expect(readTables(dir).map((t) => t.id)).toEqual(['t1']);
  });

  it('refuses a manifest listing a file outside the run folders', () => {
    const dir = finishedRun();
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as RunManifest;
    writeManifest(dir, { ...manifest, files: [...manifest.files!, { path: '../../etc/passwd', sha256: '0'.repeat(64) }] });
    expect(refusal(dir)).toMatch(
      /run\.json: at \$\.files: expected paths of output files inside the results folder, found "\.\.\/\.\.\/etc\/passwd"/,
    );
  });

  it('refuses a file changed since the manifest was written, and a manifest without a file list', () => {
    const dir = finishedRun();
    appendFileSync(join(dir, 'turns', 'b1.seed42.jsonl'), '{"turn":1}\n');
    expect(refusal(dir)).toMatch(/b1\.seed42\.jsonl: .*a changed file/);
    const old = finishedRun();
    writeManifest(old, MANIFEST);
    expect(refusal(old)).toMatch(/\$\.files: .*written by an older tooltax/);
  });

  it('clears the files the previous run lists before a new one, and nothing else', () => {
    const dir = makeTempDir('tooltax-run-');
    writeTableResult(dir, { id: 't1', title: 'T1', columns: [], rows: [] });
    // A study's calibration from an earlier run (a --quick run writes other scaling points than a full one).
    const nested = join(dir, 'studies', 'scaling', 'n500-tool-attention', 'calibration');
    mkdirSync(nested, { recursive: true });
    writeFileSync(join(nested, 'threshold-bm25-coverage.json'), '{}');
    writeManifest(dir, { ...MANIFEST, files: runFiles(dir) });
    expect(runFiles(dir).map((f) => f.path)).toContain('studies/scaling/n500-tool-attention/calibration/threshold-bm25-coverage.json');
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    const before = startRun(dir);
    expect(existsSync(join(dir, MANIFEST_FILE))).toBe(false);
    expect(runFiles(dir)).toEqual([]);
    expect(before.size).toBe(0);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine');
  });
});

describe('output-folder lock', () => {
  it('refuses a second run while the first one lives, naming its pid', () => {
    const dir = makeTempDir('tooltax-lock-');
    // A live process that is not us: the parent of this test worker.
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: process.ppid, startedAt: '2026-01-01T00:00:00Z', command: 'bench' }));
    expect(() => acquireRunLock(dir, 'bench')).toThrow(
      new RegExp(`in use by pid ${process.ppid} \\(bench, started 2026-01-01T00:00:00Z\\)`),
    );
  });

  it('takes over the lock of a process that is gone, and releases its own', () => {
    const dir = makeTempDir('tooltax-lock-');
    const gone = spawnSync(process.execPath, ['-e', '']).pid!; // exited and reaped
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: gone, startedAt: 'then', command: 'bench' }));
    const lock = acquireRunLock(dir, 'bench');
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });
});
