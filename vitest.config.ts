import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Bounds on a hang, not on speed: a run on a machine whose cores are both busy must pass too.
    testTimeout: 180_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // One temp folder per run, removed at the end (test/helpers/temp-root.global.ts).
    globalSetup: ['test/helpers/temp-root.global.ts'],
    // Each test file removes its own temp folders (run before every file, also without isolation).
    setupFiles: ['test/helpers/temp-cleanup.setup.ts'],
    // Vitest's default is cores − 1 workers: one on a 2-core machine, which runs the files one
    // after another while its main process idles. Use every core (at least two).
    maxWorkers: Math.max(2, availableParallelism()),
    // A worker loads src/ (vega, tiktoken, the encoders, the MCP SDK) once for all its files instead
    // of once per file: about a quarter of the suite's CPU time. No test leaves global state
    // behind (the registries are read-only: a test builds its own; env changes are restored).
    isolate: false,
    // Bench runs inside tests stay in one thread; test/bench/parallel-lanes.test.ts sets its lanes explicitly.
    env: { TOOLTAX_BENCH_WORKERS: '1', TOOLTAX_EMBED_WORKERS: '0' },
  },
});
