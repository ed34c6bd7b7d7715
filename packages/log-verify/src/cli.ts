#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { verifyReceipt } from './receipt.ts';

/**
 * `peeks-verify receipt.json --key <vkey>`: checks a ledger receipt with
 * nothing but the log's verifier key. Exits 0 when it holds, 1 with the
 * reason when it does not, 2 on a wrong call.
 */
function main(argv: string[]): number {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { key: { type: 'string' } }, allowPositionals: true });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  const [file] = parsed.positionals;
  const key = parsed.values.key;
  if (file === undefined || key === undefined || parsed.positionals.length !== 1) {
    process.stderr.write('usage: peeks-verify receipt.json --key <name>+<key id>+<key>\n');
    return 2;
  }
  let receipt: unknown;
  try {
    receipt = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    process.stderr.write(`cannot read ${file}: ${(error as Error).message}\n`);
    return 2;
  }
  try {
    const check = verifyReceipt(receipt, key);
    process.stdout.write(
      `In the ledger: leaf ${check.leafIndex.toLocaleString('en')} of ${check.origin}, checkpoint ${check.treeSize.toLocaleString('en')}, signed\n`,
    );
    return 0;
  } catch (error) {
    process.stdout.write(`Not proven: ${(error as Error).message}\n`);
    return 1;
  }
}

process.exitCode = main(process.argv.slice(2));
