/** Types of ./tooltax.mjs (plain JavaScript, run by node without a loader). */
export declare const BENCH_RUNTIME: { env: Record<string, string>; nodeFlags: string[] };
export declare function launchPlan(
  args: readonly string[],
  env?: NodeJS.ProcessEnv,
): { bench: boolean; nodeArgs: string[]; env: NodeJS.ProcessEnv };
