// The npm scripts' entry point (`npm run bench -- <command>`, `npm run report`): runs src/cli.ts
// in a child node process, with the bench's runtime flags when the command is the bench. Plain
// JavaScript run by node itself, so it starts in ~0.1 s without a shell, on any shell npm
// supports (a script of the form `VAR=x exec node ...` runs only in a POSIX shell). Node's heap
// flags are read when a process starts, so they cannot be set from inside the bench: hence a
// child. The child's exit status (or signal) is this process's.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli.ts');

/** The commands that are not the bench (the bench is the default command: any other first word is its option). */
const OTHER_COMMANDS = new Set(['catalog', 'budget', 'lint', 'tasks', 'report', 'retrieval', 'live', 'help']);

/**
 * What the bench's process is started with; why each pays is in docs/performance.md#runtime-flags.
 * The other commands start with node's defaults.
 */
export const BENCH_RUNTIME = {
  // glibc's malloc defaults: capping its arenas and thresholds saved memory for more time.
  env: {},
  // The old generation capped at 1024 MB like each worker lane (src/bench/execute/lanes.ts); V8's
  // own young generation and heap growth (smaller ones saved memory for more time).
  nodeFlags: ['--max-old-space-size=1024'],
};

/**
 * The folder the user typed `npm run bench` in, for the CLI to read their paths from
 * (src/commands/user-paths.ts): npm starts this script in the package folder and says where it
 * was invoked in INIT_CWD. Only when npm started this script for one of its own scripts (a
 * test run by `npm test` that starts this file inherits a stale INIT_CWD).
 */
function userCwdEnv(env) {
  const byNpm = /\btooltax\.mjs\b/.test(env.npm_lifecycle_script ?? '') && env.INIT_CWD;
  return byNpm ? { TOOLTAX_USER_CWD: env.INIT_CWD } : {};
}

/**
 * How to start the CLI for these arguments: node's arguments and the environment. The first
 * argument other than --debug names the command, as in src/cli.ts.
 */
export function launchPlan(args, env = process.env) {
  const first = args.find((a) => a !== '--debug');
  const bench = first === undefined || !OTHER_COMMANDS.has(first);
  const userCwd = userCwdEnv(env);
  return {
    bench,
    nodeArgs: [...(bench ? BENCH_RUNTIME.nodeFlags : []), '--import', 'tsx', CLI, ...args],
    env: bench ? { ...env, ...BENCH_RUNTIME.env, ...userCwd } : Object.keys(userCwd).length ? { ...env, ...userCwd } : env,
  };
}

function main() {
  const plan = launchPlan(process.argv.slice(2));
  const child = spawn(process.execPath, plan.nodeArgs, { stdio: 'inherit', env: plan.env });
  // A signal to this process (npm forwards its own) stops the run: passed on to the child, whose
  // end ends this process.
  const forward = (signal) => child.kill(signal);
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.on(s, forward);
  // npm runs this through a shell that may not pass a signal on: when npm or that shell ends
  // and leaves this process behind (its parent changes), the run stops too.
  const parent = process.ppid;
  const orphaned = setInterval(() => process.ppid !== parent && child.kill('SIGTERM'), 500);
  orphaned.unref();
  child.on('error', (err) => {
    console.error(`error: cannot start node: ${err.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    clearInterval(orphaned);
    for (const s of signals) process.off(s, forward);
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
