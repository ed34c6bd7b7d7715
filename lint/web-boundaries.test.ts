import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webBoundaries } from './web-boundaries.ts';

/**
 * The rules of lint/web-boundaries.ts applied to a small web app made here
 * with the real layout: two features, ui, lib, i18n, app and the test kit. Every
 * violation below must be reported, and the allowed imports beside them
 * must not be.
 */
const FILES: Record<string, string> = {
  'web/src/features/alpha/index.ts': "export { AlphaScreen } from './AlphaScreen.tsx';\n",
  // Another feature's insides, the app, test support: three violations; beta's surface and ui are allowed.
  'web/src/features/alpha/AlphaScreen.tsx': [
    "import { betaStore } from '../beta/beta-store.ts';",
    "import { beta } from '../beta/index.ts';",
    "import { Button } from '../../ui/Button.tsx';",
    "import { routes } from '../../app/routes.tsx';",
    "import { kit } from '../../testing/app.tsx';",
    'export const AlphaScreen = () => <Button>{String([betaStore, beta, routes, kit].length)}</Button>;',
    '',
  ].join('\n'),
  // Tests may use the kit, but reach another feature only through its surface too.
  'web/src/features/alpha/alpha.test.tsx': [
    "import { kit } from '../../testing/app.tsx';",
    "import { betaStore } from '../beta/beta-store.ts';",
    'export const checked = [kit, betaStore];',
    '',
  ].join('\n'),
  'web/src/features/beta/index.ts': "export { betaStore as beta } from './beta-store.ts';\n",
  'web/src/features/beta/beta-store.ts': 'export const betaStore = { balance: 0 };\n',
  // Only ui wraps the headless primitives: a feature importing the library is reported, ui's wrapper is not.
  'web/src/features/beta/BetaMenu.tsx':
    "import * as Menu from '@radix-ui/react-dropdown-menu';\nexport const BetaMenu = () => <Menu.Root />;\n",
  'web/src/ui/Menu.tsx':
    "import * as Menu from '@radix-ui/react-dropdown-menu';\nexport const MenuButton = () => <Menu.Root />;\n",
  // ui and lib import no feature and not the app.
  'web/src/ui/Button.tsx': [
    "import { beta } from '../features/beta/index.ts';",
    "import { format } from '../lib/money.ts';",
    'export const Button = ({ children }: { children: string }) => <button>{children + format(beta.balance)}</button>;',
    '',
  ].join('\n'),
  'web/src/lib/money.ts':
    "import { routes } from '../app/routes.tsx';\nexport const format = (n: number) => `${n}${routes.length}`;\n",
  // i18n knows no feature (each adds its own texts), and lib does not lean on ui: two violations.
  'web/src/i18n/texts.ts': "import { beta } from '../features/beta/index.ts';\nexport const texts = [beta];\n",
  'web/src/lib/api.ts': "import { Button } from '../ui/Button.tsx';\nexport const api = Button;\n",
  // The app composes the features and may reach their screens.
  'web/src/app/routes.tsx':
    'import { AlphaScreen } from \'../features/alpha/AlphaScreen.tsx\';\nexport const routes = [<AlphaScreen key="a" />];\n',
  'web/src/testing/app.tsx': "import { beta } from '../features/beta/index.ts';\nexport const kit = beta;\n",
};

let checkout: string;
let messages: string[];

beforeAll(async () => {
  checkout = await mkdtemp(path.join(tmpdir(), 'peeks-web-boundaries-'));
  for (const [file, text] of Object.entries(FILES)) {
    await mkdir(path.dirname(path.join(checkout, file)), { recursive: true });
    await writeFile(path.join(checkout, file), text);
  }
  const eslint = new ESLint({
    cwd: checkout,
    overrideConfigFile: true,
    overrideConfig: [
      { languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } } },
      ...webBoundaries(checkout),
    ],
  });
  const results = await eslint.lintFiles(['web']);
  messages = results.flatMap((result) =>
    result.messages.map(
      (message) => `${path.relative(checkout, result.filePath)}:${String(message.line)} ${String(message.ruleId)}`,
    ),
  );
}, 60_000);
afterAll(() => rm(checkout, { recursive: true, force: true }));

describe('npm run lint on the web app', () => {
  it("reports a feature reaching into another's files, in tests too, and lets it use the other's index.ts", () => {
    expect(messages).toContain('web/src/features/alpha/AlphaScreen.tsx:1 import-x/no-restricted-paths');
    expect(messages).toContain('web/src/features/alpha/alpha.test.tsx:2 import-x/no-restricted-paths');
    expect(messages).not.toContain('web/src/features/alpha/AlphaScreen.tsx:2 import-x/no-restricted-paths');
  });

  it('reports a feature importing the app, or production code importing the test kit', () => {
    expect(messages).toContain('web/src/features/alpha/AlphaScreen.tsx:4 import-x/no-restricted-paths');
    expect(messages).toContain('web/src/features/alpha/AlphaScreen.tsx:5 import-x/no-restricted-paths');
    expect(messages).not.toContain('web/src/features/alpha/alpha.test.tsx:1 import-x/no-restricted-paths');
  });

  it('reports ui or lib importing a feature or the app', () => {
    expect(messages).toContain('web/src/ui/Button.tsx:1 import-x/no-restricted-paths');
    expect(messages).toContain('web/src/lib/money.ts:1 import-x/no-restricted-paths');
  });

  it('reports i18n importing a feature, and lib importing ui', () => {
    expect(messages).toContain('web/src/i18n/texts.ts:1 import-x/no-restricted-paths');
    expect(messages).toContain('web/src/lib/api.ts:1 import-x/no-restricted-paths');
  });

  it('reports a feature importing the headless primitives library, not ui wrapping it', () => {
    expect(messages).toContain('web/src/features/beta/BetaMenu.tsx:1 no-restricted-imports');
    expect(messages).not.toContain('web/src/ui/Menu.tsx:1 no-restricted-imports');
  });

  it('reports nothing else: the app and the test kit may import features, ui may import lib', () => {
    // lib importing the app closes a cycle app → alpha → ui → lib → app, reported at each step.
    expect(messages.sort()).toEqual([
      'web/src/app/routes.tsx:1 import-x/no-cycle',
      'web/src/features/alpha/AlphaScreen.tsx:1 import-x/no-restricted-paths',
      'web/src/features/alpha/AlphaScreen.tsx:3 import-x/no-cycle',
      'web/src/features/alpha/AlphaScreen.tsx:4 import-x/no-restricted-paths',
      'web/src/features/alpha/AlphaScreen.tsx:5 import-x/no-restricted-paths',
      'web/src/features/alpha/alpha.test.tsx:2 import-x/no-restricted-paths',
      'web/src/features/beta/BetaMenu.tsx:1 no-restricted-imports',
      'web/src/i18n/texts.ts:1 import-x/no-restricted-paths',
      'web/src/lib/api.ts:1 import-x/no-restricted-paths',
      'web/src/lib/money.ts:1 import-x/no-cycle',
      'web/src/lib/money.ts:1 import-x/no-restricted-paths',
      'web/src/ui/Button.tsx:1 import-x/no-restricted-paths',
      'web/src/ui/Button.tsx:2 import-x/no-cycle',
    ]);
  });
});
