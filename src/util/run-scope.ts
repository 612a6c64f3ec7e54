import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The caches a run keeps (memos of token counts, transcripts, stems, rankings...) belong to the
 * run, not to the module that fills them: a process that runs the bench twice, a test file after
 * another, or a program that imports the harness as a library starts each run with none, and
 * what one run memoised is gone with it.
 *
 * A module declares what it keeps with `runCache(name, create)`, at module level (a typed key,
 * no state), and reaches its run's copy with `cached(key)`. The run is whatever `inRunScope`
 * started: the CLI starts one per command, the bench one per run, a worker lane one for its life
 * (one run). Like inspect_ai's context variables, the scope follows the run's async calls without
 * being passed down every signature. Calls made outside any run (a program that uses the harness
 * as a library, a unit test) share one scope of their own, which no run sees. Every cache is a
 * memo of a pure function: which scope served a call changes its speed, never its result.
 */
export interface RunCache<T> {
  /** What it keeps, for a reader of the code and of a heap snapshot. */
  readonly name: string;
  readonly create: () => T;
}

/** Declares a cache a run owns: `create` makes its empty value the first time a run asks. */
export function runCache<T>(name: string, create: () => T): RunCache<T> {
  return Object.freeze({ name, create });
}

/** The caches of one run, each made on first use. */
export class RunScope {
  private readonly values = new Map<RunCache<unknown>, unknown>();

  get<T>(cache: RunCache<T>): T {
    if (this.values.has(cache)) return this.values.get(cache) as T;
    const value = cache.create();
    this.values.set(cache, value);
    return value;
  }

  /** Names of the caches this run has made (what a test or a heap reader sees it holding). */
  names(): string[] {
    return [...this.values.keys()].map((c) => c.name);
  }
}

const current = new AsyncLocalStorage<RunScope>();
/** The scope of calls made outside any run (see above); a run never reads or fills it. */
const outsideRuns = new RunScope();

/** Runs `fn` as one run: every `cached` call under it, synchronous or awaited, uses `scope`'s caches. */
export function inRunScope<T>(fn: () => T, scope: RunScope = new RunScope()): T {
  return current.run(scope, fn);
}

/** The current run's value of `cache` (made on first use); outside any run, that of the calls outside runs. */
export function cached<T>(cache: RunCache<T>): T {
  return (current.getStore() ?? outsideRuns).get(cache);
}
