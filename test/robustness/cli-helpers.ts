import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { expect } from 'vitest';

/** Bound on one CLI run that fails fast (tsx start-up included, on a 2-core machine with both cores busy). */
const CLI_BOUND_MS = 90_000;
const run = promisify(execFile);

export async function cli(
  args: string[],
  boundMs = CLI_BOUND_MS,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { timeout: boundMs, env });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string; killed?: boolean };
    expect(e.killed, `timed out after ${boundMs} ms`).toBeFalsy();
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

export function expectOneLineError(r: { code: number; stderr: string }, pattern: RegExp): void {
  expect(r.code, r.stderr).toBe(2);
  const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(pattern);
  expect(r.stderr).not.toMatch(/^\s+at /m);
}

/** Alive and not a zombie (a container's init may never reap an orphan). */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}
