import { basename, relative, resolve, sep } from 'node:path';
import { InputError } from './input-error.ts';

/**
 * A folder or file name taken from a user's path, safe to use as one path segment: the last
 * segment of the RESOLVED path (so `some/dir/..` names `some`, never `..`), without `.json`.
 */
export function nameFromPath(path: string): string {
  const name = basename(resolve(path)).replace(/\.json$/, '');
  return name === '' || name === '.' || name === '..' ? 'catalog' : name;
}

/** A catalog's name from the paths it was loaded from (`github+slack`): its default output folders are named after it. */
export function catalogNameFromPaths(paths: readonly string[]): string {
  return paths.map(nameFromPath).join('+');
}

/** `parent/child`, refused unless it lands strictly inside `parent` (a name never climbs out). */
export function childDir(parent: string, child: string, flag: string): string {
  const base = resolve(parent);
  const dir = resolve(base, child);
  const rel = relative(base, dir);
  if (child !== '' && (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || resolve(rel) === rel))
    throw new InputError(flag, '', `a name that stays inside ${base}`, JSON.stringify(child));
  return dir;
}
