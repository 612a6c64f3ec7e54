import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { InputError } from '../util/input-error.ts';
import { userPath } from './user-paths.ts';

/**
 * Why a folder cannot take a command's outputs, or undefined when it can: it is a folder this
 * process may write into, or it can be created (its nearest existing ancestor is such a folder).
 * Nothing is created: a refused run leaves no trace.
 */
function outputDirProblem(dir: string): string | undefined {
  let path = resolve(dir);
  for (let missing = false; ; missing = true) {
    let stat;
    try {
      stat = statSync(path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR') return `a file on the way to it (${nearestFile(path)})`;
      if (code !== 'ENOENT') return `${code} reading ${path}`;
      const parent = dirname(path);
      if (parent === path) return `nothing at ${path}`;
      path = parent;
      continue;
    }
    if (!stat.isDirectory()) return missing ? `a file on the way to it (${path})` : 'a file';
    try {
      accessSync(path, constants.W_OK | constants.X_OK);
    } catch {
      return missing ? `a folder this user cannot write into on the way to it (${path})` : 'a folder this user cannot write into';
    }
    return undefined;
  }
}

/** Throws the one-line error of a folder that cannot take a command's outputs (`option`: the flag that chose it). */
export function checkOutputDir(dir: string, option: string): void {
  const problem = outputDirProblem(dir);
  if (problem) throw new InputError(resolve(dir), '', `a folder ${option} can write into`, problem);
}

/**
 * Commander's parser of an output-folder option: refused before the command starts (commander's
 * message names the option). The folder checked is the one the user means (user-paths.ts); the
 * value is returned as typed, and rewritten with the other paths before the command runs.
 */
export function parseOutputDir(value: string): string {
  const problem = outputDirProblem(userPath(value));
  if (problem) throw new InvalidArgumentError(`expected a folder to write into, found ${problem}`);
  return value;
}

/** The first ancestor of `path` that exists and is not a folder. */
function nearestFile(path: string): string {
  let p = path;
  for (;;) {
    try {
      if (!statSync(p).isDirectory()) return p;
    } catch {
      // missing or below a file: look further up
    }
    const parent = dirname(p);
    if (parent === p) return path;
    p = parent;
  }
}
