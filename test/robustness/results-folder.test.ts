import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureCommand } from '../../src/commands/capture.ts';
import { LOCK_FILE } from '../../src/results/lock.ts';
import type { RunManifest } from '../../src/results/manifest.ts';
import { readTables } from '../../src/results/read.ts';
import { checkCompleteRun, runFiles, startRun } from '../../src/results/run-files.ts';
import { writeEvents, writeManifest, writeTableResult, writeTurnRecords } from '../../src/results/write.ts';
import { InputError } from '../../src/util/input-error.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { FIXTURE_RUN_INFO } from '../report/fixture.ts';

/**
 * A results folder the user shares with the bench (in-process, through the functions the bench
 * runs before and after it writes: startRun, runFiles, checkCompleteRun, readTables): a run
 * deletes only what the previous run's manifest lists, and lists only what it wrote. Every
 * command that writes into a folder takes its lock (live: live-endpoint.test.ts).
 */
const MANIFEST: RunManifest = { ...FIXTURE_RUN_INFO, tableOrder: ['t1'] };
const USER_FILES = ['studies/mine.json', 'events/notes.json', 'calibration/mine.json', 'tables/mine.json', 'turns/mine.jsonl'];

/** A run as the bench writes one: start, write, manifest. */
function benchRun(dir: string, seed: number): void {
  const before = startRun(dir);
  writeTableResult(dir, { id: 't1', title: `T1 seed ${seed}`, columns: [], rows: [] });
  writeTurnRecords(dir, 'b1', seed, [{ turn: 0 }]);
  writeEvents(dir, 'b1', seed, [{ event: 'x' }]);
  mkdirSync(join(dir, 'calibration'), { recursive: true });
  writeFileSync(join(dir, 'calibration', 'threshold-tfidf.json'), JSON.stringify({ seed }));
  writeManifest(dir, { ...MANIFEST, files: runFiles(dir, before) });
}

describe('a results folder shared with the user', () => {
  it("keeps the user's own *.json under studies/, events/, calibration/, tables/ and turns/ across runs", () => {
    const dir = makeTempDir('tooltax-results-user-');
    for (const f of USER_FILES) {
      mkdirSync(join(dir, f, '..'), { recursive: true });
      writeFileSync(join(dir, f), '{"mine":true}\n');
    }
    benchRun(dir, 42);
    benchRun(dir, 43);
    for (const f of USER_FILES) expect(readFileSync(join(dir, f), 'utf8'), f).toBe('{"mine":true}\n');
    // The second run replaced the first one's files, listed only its own, and the first one's are gone.
    const manifest = checkCompleteRun(dir);
    expect(manifest.files!.map((f) => f.path).sort()).toEqual([
      'calibration/threshold-tfidf.json',
      'events/b1.seed43.jsonl',
      'tables/t1.json',
      'turns/b1.seed43.jsonl',
    ]);
    expect(existsSync(join(dir, 'turns', 'b1.seed42.jsonl'))).toBe(false);
    expect(readTables(dir).map((t) => t.title)).toEqual(['T1 seed 43']);
  });

  it("accepts a bench's results beside a live run's tables and reads only the bench's", () => {
    const dir = makeTempDir('tooltax-results-live-');
    benchRun(dir, 42);
    writeTableResult(dir, { id: 'live-vs-projected', title: 'Live', columns: [], rows: [] });
    expect(checkCompleteRun(dir).files).toHaveLength(4);
    expect(readTables(dir).map((t) => t.id)).toEqual(['t1']);
  });

  it('catalog --from-*: refuses an output folder another run holds, before starting any server', async () => {
    const out = makeTempDir('tooltax-results-capture-');
    writeFileSync(join(out, LOCK_FILE), JSON.stringify({ pid: process.ppid, startedAt: '2026-01-01T00:00:00Z', command: 'bench' }));
    const pidFile = join(out, 'started');
    const err = await captureCommand(
      { fromServer: [`sh -c 'echo started > ${pidFile}'`], timeout: 5, out, force: false },
      process.cwd(),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(new RegExp(`in use by pid ${process.ppid} \\(bench,`));
    expect(existsSync(pidFile)).toBe(false);
  });
});
