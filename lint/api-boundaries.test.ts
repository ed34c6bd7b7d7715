import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundaries } from './boundaries.ts';

/**
 * The rules of lint/boundaries.ts, with the API's front doors
 * (lint/api-boundaries.ts), applied to a small API made here with the real
 * layout: three features, a plugin, app.ts and the test support. Every
 * violation below must be reported, and the allowed imports beside them
 * must not be.
 */
const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'checkout', private: true, type: 'module', workspaces: ['services/api'] }),
  'services/api/package.json': JSON.stringify({ name: '@fx/api', private: true, type: 'module' }),
  // payments' front door, and its test support.
  'services/api/src/features/payments/index.ts': "export { moveMoney } from './money-movement.ts';\n",
  'services/api/src/features/payments/money-movement.ts': 'export const moveMoney = (amount: number) => amount;\n',
  'services/api/src/features/payments/testing.ts': 'export const fundedWallet = 100;\n',
  // Another feature's insides: a violation; its front door is allowed.
  'services/api/src/features/send-fund/routes.ts': [
    "import { moveMoney } from '../payments/money-movement.ts';",
    "import { moveMoney as move } from '../payments/index.ts';",
    'export const sendFund = () => moveMoney(1) + move(2);',
    '',
  ].join('\n'),
  'services/api/src/features/send-fund/index.ts': "export { sendFund } from './routes.ts';\n",
  // A test may import another feature's testing.ts, but not its insides.
  'services/api/src/features/send-fund/send-fund.test.ts': [
    "import { fundedWallet } from '../payments/testing.ts';",
    "import { moveMoney } from '../payments/money-movement.ts';",
    "import { sendFund } from './routes.ts';",
    'export const checked = [fundedWallet, moveMoney, sendFund];',
    '',
  ].join('\n'),
  // Production code never imports another feature's testing.ts.
  'services/api/src/features/send-fund/payee.ts':
    "import { fundedWallet } from '../payments/testing.ts';\nexport const payee = fundedWallet;\n",
  // Two features whose front doors lead to each other: a cycle.
  'services/api/src/features/checkout/index.ts': "export { pay } from './pay.ts';\n",
  'services/api/src/features/checkout/pay.ts':
    "import { refund } from '../returns/index.ts';\nexport const pay = () => refund.length;\n",
  'services/api/src/features/returns/index.ts': "export { refund } from './refund.ts';\n",
  'services/api/src/features/returns/refund.ts':
    "import { pay } from '../checkout/index.ts';\nexport const refund = () => pay();\n",
  // A plugin and app.ts, too, go through the front door.
  'services/api/src/plugins/ledger.ts': [
    "import { moveMoney } from '../features/payments/money-movement.ts';",
    "import { moveMoney as move } from '../features/payments/index.ts';",
    'export const ledger = [moveMoney, move];',
    '',
  ].join('\n'),
  'services/api/src/app.ts': [
    "import { sendFund } from './features/send-fund/routes.ts';",
    "import { sendFund as send } from './features/send-fund/index.ts';",
    "import { ledger } from './plugins/ledger.ts';",
    'export const app = [sendFund, send, ledger];',
    '',
  ].join('\n'),
  // The API's test support may use a feature's testing.ts, and not its insides.
  'services/api/src/testing/app.ts': [
    "import { fundedWallet } from '../features/payments/testing.ts';",
    "import { moveMoney } from '../features/payments/money-movement.ts';",
    'export const testApp = [fundedWallet, moveMoney];',
    '',
  ].join('\n'),
};

let checkout: string;
let messages: string[];

beforeAll(async () => {
  checkout = await mkdtemp(path.join(tmpdir(), 'peeks-api-boundaries-'));
  for (const [file, text] of Object.entries(FILES)) {
    await mkdir(path.dirname(path.join(checkout, file)), { recursive: true });
    await writeFile(path.join(checkout, file), text);
  }
  const eslint = new ESLint({
    cwd: checkout,
    overrideConfigFile: true,
    overrideConfig: [{ languageOptions: { parser: tseslint.parser } }, ...boundaries(checkout)],
  });
  const results = await eslint.lintFiles(['services']);
  messages = results.flatMap((result) =>
    result.messages.map(
      (message) => `${path.relative(checkout, result.filePath)}:${String(message.line)} ${String(message.ruleId)}`,
    ),
  );
}, 60_000);
afterAll(() => rm(checkout, { recursive: true, force: true }));

const restricted = (file: string, line: number) =>
  `services/api/src/${file}:${String(line)} import-x/no-restricted-paths`;

describe('npm run lint on the API', () => {
  it("reports a feature reaching into another's files, in tests too, and lets it use the other's index.ts", () => {
    expect(messages).toContain(restricted('features/send-fund/routes.ts', 1));
    expect(messages).toContain(restricted('features/send-fund/send-fund.test.ts', 2));
    expect(messages).not.toContain(restricted('features/send-fund/routes.ts', 2));
  });

  it('reports a plugin, app.ts or the test support reaching into a feature', () => {
    expect(messages).toContain(restricted('plugins/ledger.ts', 1));
    expect(messages).toContain(restricted('app.ts', 1));
    expect(messages).toContain(restricted('testing/app.ts', 2));
  });

  it("lets tests and test support use a feature's testing.ts, and not production code", () => {
    expect(messages).not.toContain(restricted('features/send-fund/send-fund.test.ts', 1));
    expect(messages).not.toContain(restricted('testing/app.ts', 1));
    expect(messages).toContain(restricted('features/send-fund/payee.ts', 1));
  });

  it('reports a cycle between two features through their front doors', () => {
    // Reported at each step of checkout → returns → checkout, the front doors included.
    expect(messages).toContain('services/api/src/features/checkout/pay.ts:1 import-x/no-cycle');
    expect(messages).toContain('services/api/src/features/returns/refund.ts:1 import-x/no-cycle');
  });

  it('reports nothing else: a feature imports its own files, and everyone the front doors', () => {
    expect(messages.sort()).toEqual([
      'services/api/src/app.ts:1 import-x/no-restricted-paths',
      'services/api/src/features/checkout/index.ts:1 import-x/no-cycle',
      'services/api/src/features/checkout/pay.ts:1 import-x/no-cycle',
      'services/api/src/features/returns/index.ts:1 import-x/no-cycle',
      'services/api/src/features/returns/refund.ts:1 import-x/no-cycle',
      'services/api/src/features/send-fund/payee.ts:1 import-x/no-restricted-paths',
      'services/api/src/features/send-fund/routes.ts:1 import-x/no-restricted-paths',
      'services/api/src/features/send-fund/send-fund.test.ts:2 import-x/no-restricted-paths',
      'services/api/src/plugins/ledger.ts:1 import-x/no-restricted-paths',
      'services/api/src/testing/app.ts:2 import-x/no-restricted-paths',
    ]);
  });
});
