import { defineConfig } from 'vitest/config';

/**
 * `npm run test:robustness`: whole CLI runs on hostile and interrupted inputs (tens of seconds
 * each on a loaded machine), kept out of `npm test`. Same temp-directory hygiene.
 */
export default defineConfig({
  test: {
    include: ['test/robustness/**/*.e2e.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    globalSetup: ['test/helpers/temp-root.global.ts'],
    setupFiles: ['test/helpers/temp-cleanup.setup.ts'],
  },
});
