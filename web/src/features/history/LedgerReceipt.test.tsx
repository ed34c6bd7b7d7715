import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi, ok, refused, renderApp, resetSession, sessionUser } from '../../testing/app.tsx';
import { transactionView } from '../../testing/transactions.ts';
import { checkReceipt, type LedgerReceipt } from '../../lib/ledger-log.ts';

// A log of 13 leaves built here with node:crypto, as RFC 9162 defines the tree.
const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const largestPowerBelow = (n: number) => 2 ** Math.floor(Math.log2(n - 1));
const root = (leaves: Buffer[]): Buffer => {
  if (leaves.length === 1) return sha256(Buffer.of(0), leaves[0] ?? Buffer.alloc(0));
  const k = largestPowerBelow(leaves.length);
  return sha256(Buffer.of(1), root(leaves.slice(0, k)), root(leaves.slice(k)));
};
const path = (m: number, leaves: Buffer[]): Buffer[] => {
  if (leaves.length <= 1) return [];
  const k = largestPowerBelow(leaves.length);
  return m < k
    ? [...path(m, leaves.slice(0, k)), root(leaves.slice(k))]
    : [...path(m - k, leaves.slice(k)), root(leaves.slice(0, k))];
};

const name = 'peeks-wallet.example/ledger';
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
const keyId = sha256(Buffer.from(name), Buffer.of(0x0a, 1), raw).subarray(0, 4);
const vkey = `${name}+${keyId.toString('hex')}+${Buffer.concat([Buffer.of(1), raw]).toString('base64')}`;
const leaves = Array.from({ length: 13 }, (_, index) => Buffer.alloc(32, index));
const text = `${name}\n13\n${root(leaves).toString('base64')}\n`;
const signature = Buffer.concat([keyId, sign(null, Buffer.from(text), privateKey)]).toString('base64');

const receipt: LedgerReceipt = {
  transaction: transactionView({ tx_id: 'tx-rent' }),
  leaf_index: 9,
  tree_size: 13,
  leaf_data: leaves[9]?.toString('hex') ?? '',
  proof: path(9, leaves).map((hash) => hash.toString('base64')),
  checkpoint: `${text}\n\u2014 ${name} ${signature}\n`,
};

describe('a ledger receipt checked in the browser', () => {
  it('holds when the proof leads to the signed root', async () => {
    expect(await checkReceipt(receipt, vkey)).toBeNull();
  });

  it('says why it does not hold', async () => {
    expect(await checkReceipt({ ...receipt, leaf_index: 8 }, vkey)).toBe('the proof does not lead to the signed root');
    expect(await checkReceipt({ ...receipt, tree_size: 14 }, vkey)).toBe('the checkpoint is of another tree size');
    expect(await checkReceipt({ ...receipt, checkpoint: receipt.checkpoint.replace('\n13\n', '\n14\n') }, vkey)).toBe(
      'the checkpoint is not signed by the log key',
    );
    expect(await checkReceipt(receipt, vkey.replace(/\+[0-9a-f]{8}\+/u, '+00000000+'))).toBe(
      'the log key does not match its key id',
    );
  });
});

describe('the receipt in a transaction’s Details', () => {
  beforeEach(() => {
    resetSession();
  });

  const api = (
    inclusion = () => ok({ leaf_index: 9, tree_size: 13, leaf_data: receipt.leaf_data, proof: receipt.proof }),
  ) =>
    fakeApi({
      'GET /api/session': () => ok({ user: sessionUser(), csrfToken: 'csrf' }),
      'GET /api/account/balance': () =>
        ok({
          balance: { currency: 'CON', balance: 0, available_balance: 0, withdrawable_balance: 0, balances: [] },
        }),
      'POST /api/account/transactions': () => ok({ transactions: [receipt.transaction], total: 1 }),
      'GET /api/ledger/log-key': () => ok({ vkey }),
      'GET /api/ledger/checkpoint': () => ok({ checkpoint: receipt.checkpoint }),
      'GET /api/ledger/proof/inclusion': inclusion,
    });

  it('checks the proof against the signed checkpoint in the browser, and offers the receipt', async () => {
    const calls = api();
    const { user } = renderApp('/transaction');
    await user.click(await screen.findByRole('button', { name: 'Details of tx-rent' }));
    const dialog = screen.getByRole('dialog', { name: 'Details' });
    await user.click(within(dialog).getByRole('button', { name: 'Check it is in the ledger' }));
    expect((await within(dialog).findByRole('status')).textContent).toBe('In the ledger, checkpoint 13, signed');
    expect(calls.sent('GET', '/api/ledger/proof/inclusion')).toHaveLength(1);
    const link = within(dialog).getByRole('link', { name: 'Download receipt' });
    const saved = JSON.parse(
      decodeURIComponent((link.getAttribute('href') ?? '').split(',').slice(1).join(',')),
    ) as LedgerReceipt;
    expect(saved).toMatchObject({ leaf_index: 9, tree_size: 13, checkpoint: receipt.checkpoint });
  });

  it('says when the server’s proof does not hold', async () => {
    api(() => ok({ leaf_index: 8, tree_size: 13, leaf_data: receipt.leaf_data, proof: receipt.proof }));
    const { user } = renderApp('/transaction');
    await user.click(await screen.findByRole('button', { name: 'Details of tx-rent' }));
    const dialog = screen.getByRole('dialog', { name: 'Details' });
    await user.click(within(dialog).getByRole('button', { name: 'Check it is in the ledger' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Not proven: the proof does not lead to the signed root',
    );
  });

  it('tells a transaction not yet in the log to try again', async () => {
    api(() => refused(422, [{ code: 42295, message: 'not yet', field: 'tree_size' }]));
    const { user } = renderApp('/transaction');
    await user.click(await screen.findByRole('button', { name: 'Details of tx-rent' }));
    const dialog = screen.getByRole('dialog', { name: 'Details' });
    await user.click(within(dialog).getByRole('button', { name: 'Check it is in the ledger' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'The transaction is not in the ledger log yet; try again in a few seconds',
    );
  });
});
