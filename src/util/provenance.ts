import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The version in the project's package.json. */
export function packageVersion(root: string): string {
  try {
    return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** This tooltax's own version: its package.json, two folders above this module in src/ and in dist/ alike. */
export function ownVersion(): string {
  return packageVersion(fileURLToPath(new URL('../..', import.meta.url)));
}

/** `git rev-parse HEAD` of the checkout, or undefined outside a git checkout (a tarball, a copy). */
export function gitCommit(root: string): string | undefined {
  const r = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8', timeout: 5_000 });
  return r.status === 0 ? r.stdout.trim() || undefined : undefined;
}

/**
 * SHA-256 of the harness's code: every file under src/ with its path, then package.json and
 * package-lock.json. Two checkouts with the same fingerprint compute the same results.
 */
export function codeFingerprint(root: string): string {
  const hash = createHash('sha256');
  const src = join(root, 'src');
  const files = existsSync(src)
    ? readdirSync(src, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
        .sort()
    : [];
  for (const file of [...files, 'package.json', 'package-lock.json']) {
    const path = join(root, ...file.split('/'));
    hash.update(`${file}\u0000`);
    if (existsSync(path)) hash.update(readFileSync(path));
    hash.update('\u0000');
  }
  return hash.digest('hex');
}
