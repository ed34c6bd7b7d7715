import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts', '**/*.test.tsx'],
    exclude: ['**/node_modules/**', '**/dist/**', '.data/**'],
    globalSetup: ['tests/global-database.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
