import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Temporary folders for tests, removed when the test file ends (test/helpers/temp-cleanup.setup.ts
 * registers the removal for every file: with `isolate: false` this module is loaded once per
 * worker, so an afterAll here would only run for the first file). Whatever a test or a spawned
 * CLI leaves elsewhere in the temp directory is caught by test/helpers/temp-root.global.ts.
 */
const made: string[] = [];

export function makeTempDir(prefix = 'tooltax-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
