import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * Temporary folders for tests, removed when the test file ends. (Whatever a test or a spawned
 * CLI leaves elsewhere in the temp directory is caught by test/helpers/temp-root.global.ts.)
 */
const made: string[] = [];

export function makeTempDir(prefix = 'tooltax-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

afterAll(removeTempDirs);
