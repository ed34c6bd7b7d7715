import type { Linter } from 'eslint';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

/**
 * The web app's own boundaries (docs/architecture/web-app.md, Structure):
 * `ui`, `lib` and `i18n` are shared by every feature and import none, in
 * layers (ui may use lib and i18n, lib may use i18n, i18n neither); a feature
 * never imports the app that composes it, and imports another feature only
 * through that feature's public surface, `features/<name>/index.ts`. The app
 * (routes, the root layout, the first load's texts) sits above the features
 * and may reach into them. Only ui imports the headless primitives library.
 * A function of the checkout's
 * root, so lint/web-boundaries.test.ts applies the same rules to a tree of its own.
 */
/** Test support: the component-test kit, a feature's testing.ts or testing/ folder, the tests. */
const TEST_SUPPORT = [
  'web/src/**/testing/**',
  'web/src/**/testing.ts',
  'web/src/**/*.test.ts',
  'web/src/**/*.test.tsx',
];

export function webBoundaries(root: string): Linter.Config[] {
  const src = path.join(root, 'web', 'src');
  const features = readdirSync(path.join(src, 'features'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const featureZones = features.map((feature) => ({
    target: `./web/src/features/${feature}`,
    from: path.join(src, 'features', '**'),
    except: [path.join(src, 'features', feature, '**'), path.join(src, 'features', '*', 'index.ts')],
    message: `A feature imports another only through its public surface, features/<name>/index.ts; move what both need to web/src/ui.`,
  }));
  const zones = [
    ...featureZones,
    {
      target: ['./web/src/ui', './web/src/lib', './web/src/i18n'],
      from: ['./web/src/features', './web/src/app'],
      message:
        "ui, lib and i18n are shared by every feature and import none of them, nor the app; a feature adds its own texts (addLaterTexts), the app the first load's.",
    },
    {
      target: './web/src/lib',
      from: './web/src/ui',
      message: 'lib sits under ui: ui may use lib, never the other way; move what both need to lib.',
    },
    {
      target: './web/src/i18n',
      from: ['./web/src/ui', './web/src/lib'],
      message: 'i18n sits under ui and lib and imports neither.',
    },
    {
      target: './web/src/features',
      from: './web/src/app',
      message: 'A feature never imports the app that composes it.',
    },
  ];
  const testSupport = {
    target: './web/src',
    from: TEST_SUPPORT.map((glob) => path.join(root, glob)),
    message: 'Production code never imports test support (a testing/ folder or testing.ts, a *.test.tsx file).',
  };
  const settings = {
    'import-x/extensions': ['.ts', '.tsx'],
    'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
  };
  return [
    {
      // The design system wraps the headless primitives (dialogs, menus, tabs, tooltips, toasts), so a screen
      // gets our markup, texts and focus rules, and the library can change in one folder.
      files: ['web/src/**/*.{ts,tsx}'],
      ignores: ['web/src/ui/**'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                group: ['@radix-ui/*', 'radix-ui', 'react-aria-components', 'react-aria', '@react-aria/*'],
                message: 'Use the design system (web/src/ui: Dialog, MenuButton, Tabs, Tooltip, toast) instead.',
              },
            ],
          },
        ],
      },
    },
    {
      files: ['web/src/**/*.{ts,tsx}'],
      plugins: { 'import-x': importX },
      settings,
      rules: {
        'import-x/no-cycle': ['error', { ignoreExternal: true }],
        'import-x/no-restricted-paths': ['error', { basePath: root, zones }],
      },
    },
    {
      files: ['web/src/**/*.{ts,tsx}'],
      ignores: TEST_SUPPORT,
      rules: {
        'import-x/no-restricted-paths': ['error', { basePath: root, zones: [...zones, testSupport] }],
      },
    },
  ];
}
