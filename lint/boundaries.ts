import type { Linter } from 'eslint';
import path from 'node:path';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import { apiFeatureZones } from './api-boundaries.ts';

/**
 * Where code may not reach, and what every file must declare: the rules
 * docs/development.md lists under Boundaries. A function of the checkout's
 * root, so that lint/boundaries.test.ts applies the very same rules to a
 * small tree of its own. The web app (web/**) keeps its own rules.
 */

/** Test support: a `testing/` folder or `testing.ts` of a workspace or feature, and the tests themselves. */
export const TEST_SUPPORT = ['**/testing/**', '**/testing.ts', '**/*.test.ts', '**/*.test.tsx'];

/** Files that are not production code: test support, the end-to-end tests, the benches, the tooling's own files. */
const NOT_PRODUCTION = [...TEST_SUPPORT, 'tests/**', 'load/**', 'lint/**', '*.config.ts'];

/** Production code: every workspace's src/, but for its test support. */
const PRODUCTION = ['packages/*/src/**/*.ts', 'services/*/src/**/*.ts'];

export function boundaries(root: string): Linter.Config[] {
  const zones = [
    {
      target: './packages',
      from: './services',
      message: 'A package never imports a service: move what both need into a package.',
    },
    {
      target: './services/api',
      from: './services/worker',
      message: 'The API reaches the workers only through the jobs they share (@peeks/jobs).',
    },
    // The ledger imports nothing of ours; services are left to the first zone, which keeps them out of every package.
    {
      target: './packages/ledger',
      from: './',
      except: ['./packages/ledger', './node_modules', './services'],
      message:
        'The ledger depends on nothing of ours: others import its words (@peeks/ledger/words), never the other way round.',
    },
    // An API feature is imported through its front door only (lint/api-boundaries.ts).
    ...apiFeatureZones(root),
  ];
  const testSupport = {
    target: './',
    from: TEST_SUPPORT.map((glob) => `./${glob}`),
    message: 'Production code never imports test support (a testing/ folder or testing.ts, a *.test.ts file).',
  };
  return [
    {
      files: ['**/*.ts'],
      ignores: ['web/**'],
      plugins: { 'import-x': importX },
      settings: {
        // The import graph (for no-cycle) is read from TypeScript files too, with the parser lint already uses.
        'import-x/extensions': ['.ts', '.tsx', '.js'],
        'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
        'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json', '.node'] })],
      },
      rules: {
        'import-x/no-cycle': ['error', { ignoreExternal: true }],
        'import-x/no-restricted-paths': ['error', { basePath: root, zones }],
        // Each workspace's package.json is its own: production code uses its
        // dependencies, test support may use its devDependencies too.
        'import-x/no-extraneous-dependencies': [
          'error',
          {
            devDependencies: NOT_PRODUCTION.map((glob) => path.join(root, glob)),
            optionalDependencies: false,
            peerDependencies: false,
          },
        ],
      },
    },
    {
      files: PRODUCTION,
      ignores: TEST_SUPPORT,
      rules: {
        'import-x/no-restricted-paths': ['error', { basePath: root, zones: [...zones, testSupport] }],
        'no-restricted-imports': [
          'error',
          {
            paths: [
              { name: 'vitest', message: 'Production code never imports the test runner.' },
              { name: 'fast-check', message: 'Production code never imports the property-test library.' },
            ],
            patterns: [{ group: ['vitest/*'], message: 'Production code never imports the test runner.' }],
          },
        ],
      },
    },
  ];
}
