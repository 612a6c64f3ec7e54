import { defineConfig } from 'vitest/config';

/**
 * `npm run test:e2e`: whole commands in child processes (the CLI on hostile and interrupted
 * inputs, live runs, whole benches), tens of seconds each on a loaded machine, kept out of
 * `npm test`. Generous bounds: a busy machine must not fail a run for no defect. Same
 * temp-directory hygiene.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.e2e.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    globalSetup: ['test/helpers/temp-root.global.ts'],
    setupFiles: ['test/helpers/temp-cleanup.setup.ts'],
  },
});
