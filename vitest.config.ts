import { defineConfig } from 'vitest/config';

const exclude = ['**/node_modules/**', '**/dist/**', '.data/**'];

/**
 * Two projects: the server side (Node, one migrated template database made
 * before any file runs) and the web app (jsdom, no database). `npm test`
 * runs both; `npm test -- --project web` only the web app's.
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: ['**/*.test.ts'],
          exclude: [...exclude, 'web/**'],
          globalSetup: ['tests/global-database.ts'],
        },
      },
      {
        extends: true,
        // React 17+ JSX without the dev-server plugin, which tests do not need.
        oxc: { jsx: { runtime: 'automatic' } },
        test: {
          name: 'web',
          root: 'web',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude,
          environment: 'jsdom',
          setupFiles: ['src/testing/setup.ts'],
        },
      },
    ],
  },
});
