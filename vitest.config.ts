import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One temp folder per run, removed at the end (test/helpers/temp-root.global.ts).
    globalSetup: ['test/helpers/temp-root.global.ts'],
  },
});
