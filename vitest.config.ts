import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One temp folder per run, removed at the end (test/helpers/temp-root.global.ts).
    globalSetup: ['test/helpers/temp-root.global.ts'],
    // Vitest's default is cores − 1 workers: one on a 2-core machine, which runs the files one
    // after another while its main process idles. Use every core (at least two).
    maxWorkers: Math.max(2, availableParallelism()),
    // Bench runs inside tests stay in one thread; test/bench/parallel-lanes.test.ts sets its lanes explicitly.
    env: { TOOLTAX_BENCH_WORKERS: '1', TOOLTAX_EMBED_WORKERS: '0' },
  },
});
