import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ESLint } from 'eslint';
import * as prettier from 'prettier';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundaries } from './boundaries.ts';

/**
 * The rules of lint/boundaries.ts, and the dependency check `npm run lint`
 * runs, applied to a small checkout made here with the same layout:
 * packages/, services/api and services/worker, each a workspace of its own.
 * Every violation below must be reported, and the allowed imports beside
 * them must not be.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const KNIP = path.join(ROOT, 'node_modules', 'knip', 'bin', 'knip.js');

const workspace = (
  name: string,
  dependencies: Record<string, string> = {},
  devDependencies: Record<string, string> = {},
  exports: Record<string, string> = {},
) =>
  JSON.stringify({
    name,
    private: true,
    type: 'module',
    exports: { '.': './src/index.ts', ...exports },
    dependencies,
    devDependencies,
  });

const FILES: Record<string, string> = {
  'package.json': JSON.stringify({
    name: 'checkout',
    private: true,
    type: 'module',
    workspaces: ['packages/ledger', 'packages/jobs', 'services/api', 'services/worker'],
  }),
  'packages/ledger/package.json': workspace(
    '@fx/ledger',
    { '@fx/api': '*', '@fx/jobs': '*', zod: '*' },
    { vitest: '*' },
    { './reach': './src/reach.ts' },
  ),
  'packages/ledger/src/index.ts': "export { one } from './one.ts';\nexport { words } from './words.ts';\n",
  // A cycle: one.ts and two.ts import each other.
  'packages/ledger/src/one.ts': "import { two } from './two.ts';\nexport const one = () => two() + 1;\n",
  'packages/ledger/src/two.ts': "import { one } from './one.ts';\nexport const two = () => (one.length > 9 ? 0 : 2);\n",
  // A package importing a service, by name and by path; and pino, which it does not declare.
  'packages/ledger/src/reach.ts': [
    "import { route } from '@fx/api';",
    "import { send } from '../../../services/worker/src/index.ts';",
    "import { z } from 'zod';",
    "import pino from 'pino';",
    'export const reach = [route, send, z, pino];',
    '',
  ].join('\n'),
  // The ledger importing another package of ours, by name and by path.
  'packages/ledger/src/words.ts': [
    "import { enqueue } from '@fx/jobs';",
    "import { enqueue as queue } from '../../jobs/src/index.ts';",
    'export const words = [enqueue, queue];',
    '',
  ].join('\n'),
  // Tests may use the workspace's devDependencies.
  'packages/ledger/src/one.test.ts':
    "import { it } from 'vitest';\nimport { one } from './one.ts';\nit('one', () => one());\n",

  // Declares zod, which nothing imports.
  'packages/jobs/package.json': workspace('@fx/jobs', { zod: '*' }),
  'packages/jobs/src/index.ts': 'export const enqueue = () => 1;\n',

  'services/worker/package.json': workspace('@fx/worker', { '@fx/jobs': '*' }),
  'services/worker/src/index.ts': "import { enqueue } from '@fx/jobs';\nexport const send = () => enqueue();\n",

  'services/api/package.json': workspace(
    '@fx/api',
    { '@fx/jobs': '*', '@fx/ledger': '*', '@fx/worker': '*' },
    { vitest: '*' },
  ),
  'services/api/src/index.ts': "export { route } from './route.ts';\n",
  // The API importing the worker; production code importing test support and the test runner.
  'services/api/src/route.ts': [
    "import { enqueue } from '@fx/jobs';",
    "import { one } from '@fx/ledger';",
    "import { send } from '@fx/worker';",
    "import { app } from './testing/app.ts';",
    "import { checked } from './route.test.ts';",
    "import { expect } from 'vitest';",
    'export const route = () => [enqueue, one, send, app, checked, expect];',
    '',
  ].join('\n'),
  // Test support may import production code, and tests test support.
  'services/api/src/testing/app.ts': "import { enqueue } from '@fx/jobs';\nexport const app = enqueue;\n",
  // A feature's testing.ts (its route samples) is test support too.
  'services/api/src/feature/testing.ts': "import { app } from '../testing/app.ts';\nexport const samples = [app];\n",
  'services/api/src/route.test.ts': [
    "import { it } from 'vitest';",
    "import { app } from './testing/app.ts';",
    'export const checked = true;',
    "it('route', () => app());",
    '',
  ].join('\n'),
};

let checkout: string;
let messages: { file: string; line: number; rule: string | null }[];

beforeAll(async () => {
  checkout = await mkdtemp(path.join(tmpdir(), 'peeks-boundaries-'));
  for (const [file, text] of Object.entries(FILES)) {
    await mkdir(path.dirname(path.join(checkout, file)), { recursive: true });
    await writeFile(path.join(checkout, file), text);
  }
  // As npm lays out workspaces: a link per workspace, and the registry's packages.
  await mkdir(path.join(checkout, 'node_modules', '@fx'), { recursive: true });
  for (const [name, dir] of [
    ['ledger', 'packages/ledger'],
    ['jobs', 'packages/jobs'],
    ['api', 'services/api'],
    ['worker', 'services/worker'],
  ] as const)
    await symlink(path.join(checkout, dir), path.join(checkout, 'node_modules', '@fx', name));
  for (const name of ['zod', 'pino', 'vitest'])
    await symlink(path.join(ROOT, 'node_modules', name), path.join(checkout, 'node_modules', name));

  const eslint = new ESLint({
    cwd: checkout,
    overrideConfigFile: true,
    overrideConfig: [{ languageOptions: { parser: tseslint.parser } }, ...boundaries(checkout)],
  });
  const results = await eslint.lintFiles(['packages', 'services']);
  messages = results.flatMap((result) =>
    result.messages.map((message) => ({
      file: path.relative(checkout, result.filePath),
      line: message.line,
      rule: message.ruleId,
    })),
  );
}, 60_000);
afterAll(() => rm(checkout, { recursive: true, force: true }));

const reported = (file: string, rule: string) =>
  messages.filter((message) => message.file === file && message.rule === rule).map((message) => message.line);

describe('npm run lint', () => {
  it('reports an import cycle', () => {
    expect(reported('packages/ledger/src/one.ts', 'import-x/no-cycle')).toEqual([1]);
    expect(reported('packages/ledger/src/two.ts', 'import-x/no-cycle')).toEqual([1]);
  });

  it('reports a package importing a service, by name or by path', () => {
    expect(reported('packages/ledger/src/reach.ts', 'import-x/no-restricted-paths')).toEqual([1, 2]);
  });

  it('reports the ledger importing any other package of ours, and lets it import its own files and the registry', () => {
    expect(reported('packages/ledger/src/words.ts', 'import-x/no-restricted-paths')).toEqual([1, 2]);
    expect(reported('packages/ledger/src/index.ts', 'import-x/no-restricted-paths')).toEqual([]);
    expect(reported('packages/ledger/src/one.test.ts', 'import-x/no-restricted-paths')).toEqual([]);
  });

  it('reports the API importing the workers, and lets both import the jobs they share', () => {
    expect(reported('services/api/src/route.ts', 'import-x/no-restricted-paths')).toContain(3);
    expect(reported('services/worker/src/index.ts', 'import-x/no-restricted-paths')).toEqual([]);
  });

  it('reports production code importing test support or the test runner, and lets tests do so', () => {
    expect(reported('services/api/src/route.ts', 'import-x/no-restricted-paths')).toEqual([3, 4, 5]);
    expect(reported('services/api/src/route.ts', 'no-restricted-imports')).toEqual([6]);
    expect(reported('services/api/src/route.ts', 'import-x/no-extraneous-dependencies')).toEqual([6]);
    expect(reported('services/api/src/route.test.ts', 'import-x/no-restricted-paths')).toEqual([]);
    expect(reported('services/api/src/testing/app.ts', 'import-x/no-restricted-paths')).toEqual([]);
    expect(reported('services/api/src/feature/testing.ts', 'import-x/no-restricted-paths')).toEqual([]);
  });

  it('reports a dependency a workspace imports without declaring it', () => {
    expect(reported('packages/ledger/src/reach.ts', 'import-x/no-extraneous-dependencies')).toEqual([4]);
    expect(reported('packages/ledger/src/one.test.ts', 'import-x/no-extraneous-dependencies')).toEqual([]);
  });

  it('reports nothing else', () => {
    expect(messages.map((message) => `${message.file}:${String(message.line)} ${String(message.rule)}`).sort()).toEqual(
      [
        'packages/ledger/src/one.ts:1 import-x/no-cycle',
        'packages/ledger/src/reach.ts:1 import-x/no-restricted-paths',
        'packages/ledger/src/reach.ts:2 import-x/no-restricted-paths',
        'packages/ledger/src/reach.ts:4 import-x/no-extraneous-dependencies',
        'packages/ledger/src/two.ts:1 import-x/no-cycle',
        'packages/ledger/src/words.ts:1 import-x/no-restricted-paths',
        'packages/ledger/src/words.ts:2 import-x/no-restricted-paths',
        'services/api/src/route.ts:3 import-x/no-restricted-paths',
        'services/api/src/route.ts:4 import-x/no-restricted-paths',
        'services/api/src/route.ts:5 import-x/no-restricted-paths',
        'services/api/src/route.ts:6 import-x/no-extraneous-dependencies',
        'services/api/src/route.ts:6 no-restricted-imports',
      ],
    );
  });

  it('reports a dependency a workspace declares and never imports', async () => {
    const knip = await promisify(execFile)(
      process.execPath,
      [KNIP, '--dependencies', '--no-progress', '--no-config-hints', '--reporter', 'json'],
      { cwd: checkout },
    ).then(
      () => null,
      (error: unknown) => error as { code: number; stdout: string },
    );
    expect(knip?.code).toBe(1);
    const { issues } = JSON.parse(knip?.stdout ?? '{}') as {
      issues: { file: string; dependencies: { name: string }[] }[];
    };
    const unused = issues.flatMap((issue) =>
      issue.dependencies.map((dependency) => `${issue.file}: ${dependency.name}`),
    );
    expect(unused).toEqual(['packages/jobs/package.json: zod']);
  }, 60_000);

  it('reports code prettier would format otherwise', async () => {
    const options = { ...(await prettier.resolveConfig(path.join(ROOT, 'package.json'))), filepath: 'shape.ts' };
    expect(await prettier.check("export const shape = {a:1,b:'two'}\n", options)).toBe(false);
    expect(await prettier.check("export const shape = { a: 1, b: 'two' };\n", options)).toBe(true);
  });
});
