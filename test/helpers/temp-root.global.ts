import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * vitest globalSetup: every test worker (and every CLI a test spawns) inherits TMPDIR pointing
 * at one folder for this run, removed at the end, so one `npm test` leaves nothing in the
 * system temp directory. Anything still in it at the end is named, so a test that forgets to
 * clean up is noticed.
 */
export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), 'tooltax-test-run-'));
  process.env.TMPDIR = root;
  return () => {
    // tsx keeps its compile cache (tsx-<uid>) in the temp directory of every CLI a test spawns.
    const left = readdirSync(root).filter((f) => !/^tsx-\d+$/.test(f));
    rmSync(root, { recursive: true, force: true });
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (left.length) console.warn(`tests left ${left.length} item(s) in the temp directory (removed): ${left.slice(0, 5).join(', ')}`);
  };
}
