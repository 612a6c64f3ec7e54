import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The version in the project's package.json. */
export function packageVersion(root: string): string {
  try {
    return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** `git rev-parse HEAD` of the checkout, or undefined outside a git checkout (a tarball, a copy). */
export function gitCommit(root: string): string | undefined {
  const r = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8', timeout: 5_000 });
  return r.status === 0 ? r.stdout.trim() || undefined : undefined;
}
