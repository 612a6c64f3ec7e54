import type { Command } from 'commander';
import { isAbsolute, relative, resolve } from 'node:path';

/**
 * Paths from where the user stands. `npm run bench -- ...` runs the CLI in the package folder,
 * wherever the user typed it; the npm scripts' launcher (scripts/tooltax.mjs) passes the folder
 * the user typed it in (npm's INIT_CWD) as TOOLTAX_USER_CWD, and every path option is read from
 * there. Without it (the CLI started directly) that is the process's own folder.
 */
const USER_CWD_ENV = 'TOOLTAX_USER_CWD';

/** The folder the user typed the command in. */
export function userCwd(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env[USER_CWD_ENV];
  return dir && isAbsolute(dir) ? dir : process.cwd();
}

/**
 * A path the user typed, as this process opens it: an absolute path as given, a relative one
 * resolved from the user's folder and written relative to this process's folder again (so the
 * results record `catalogs/x.json`, not a path of this machine, when the two folders are one).
 */
export function userPath(path: string, env: NodeJS.ProcessEnv = process.env): string {
  if (isAbsolute(path)) return path;
  const cwd = userCwd(env);
  if (cwd === process.cwd()) return path;
  return relative(process.cwd(), resolve(cwd, path)) || '.';
}

/** The options that take paths (a string or a list of them), by commander's attribute name, in every command. */
const PATH_OPTIONS = new Set(['catalog', 'tasks', 'out', 'reports', 'results', 'fromConfig', 'hostFile', 'fix', 'badge']);
/** The arguments that take paths, by name (`merge <folders...>`). */
const PATH_ARGUMENTS = new Set(['folders']);

/**
 * Commander's preAction hook: rewrites the path options and arguments of the command about to
 * run with userPath. A value that is not text (live's `--tasks <n>` is a count) is left alone.
 */
export function resolveUserPaths(cmd: Command): void {
  const map = (v: unknown): unknown =>
    typeof v === 'string' ? userPath(v) : Array.isArray(v) && v.every((x) => typeof x === 'string') ? v.map((x) => userPath(x)) : v;
  for (const option of cmd.options) {
    const key = option.attributeName();
    if (!PATH_OPTIONS.has(key)) continue;
    // A default is the program's own (results/ under the package folder), never the user's.
    if (cmd.getOptionValueSource(key) !== 'cli') continue;
    cmd.setOptionValueWithSource(key, map(cmd.getOptionValue(key)), 'cli');
  }
  cmd.registeredArguments.forEach((arg, i) => {
    if (PATH_ARGUMENTS.has(arg.name()) && i < cmd.processedArgs.length) cmd.processedArgs[i] = map(cmd.processedArgs[i]);
  });
}
