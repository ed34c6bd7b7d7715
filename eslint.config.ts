import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { boundaries } from './lint/boundaries.ts';
import { webBoundaries } from './lint/web-boundaries.ts';

export default defineConfig(
  // k6 scripts run in k6's own JavaScript runtime, not Node.
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', 'coverage/**', 'load/k6/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: globals.node,
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  ...boundaries(import.meta.dirname),
  ...webBoundaries(import.meta.dirname),
  { ...reactHooks.configs.flat.recommended, files: ['web/src/**/*.{ts,tsx}'] },
  { files: ['web/src/**/*.{ts,tsx}'], languageOptions: { globals: globals.browser } },
  {
    files: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
