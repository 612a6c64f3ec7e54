import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Bench runs inside tests stay in one thread; test/bench/parallel-lanes.test.ts sets its lanes explicitly.
    env: { TOOLTAX_BENCH_WORKERS: '1', TOOLTAX_EMBED_WORKERS: '0' },
  },
});
