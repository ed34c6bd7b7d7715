import { needsOf, walletIdOf, type LedgerCommand, type WalletState } from '@peeks/ledger';
import { describe, expect, it } from 'vitest';
import { BatchState } from './batch-state.ts';
import { commitBatch } from './commit-batch.ts';
import { decideRequest } from './decide.ts';
import type { Decision, ReadState } from './types.ts';

const NOW = new Date('2026-11-22T00:00:00Z');
const ann = walletIdOf('ann', 'CON');
const bob = walletIdOf('bob', 'CON');
const cat = walletIdOf('cat', 'CON');

function wallet(owner: string, total: number): WalletState {
  return {
    walletId: walletIdOf(owner, 'CON'),
    ownerId: owner,
    currency: 'CON',
    status: 'open',
    total,
    available: total,
    withdrawable: total,
    reserved: 0,
  };
}

const transfer = (txId: string, from: string, to: string, amount: number): LedgerCommand => ({
  type: 'Transfer',
  txId,
  kind: 'P2P',
  fromOwnerId: from,
  toOwnerId: to,
  amount,
  fee: 0,
  currency: 'CON',
  memo: null,
});

/** Ann holds one coin of 1,000; bob and cat hold nothing. Every wallet was read at version 4. */
function readState(): ReadState {
  return {
    wallets: new Map([
      [ann, wallet('ann', 1_000)],
      [bob, wallet('bob', 0)],
      [cat, wallet('cat', 0)],
    ]),
    versions: new Map([
      [ann, 4],
      [bob, 4],
      [cat, 4],
    ]),
    coins: new Map([
      [ann, [{ serial: 'PKS-ANN', value: 1_000 }]],
      [bob, []],
    ]),
    readUpTo: new Map(),
  };
}

/** Decides the commands in turn, as a group-commit batch does. */
function decideInTurn(read: ReadState, commands: LedgerCommand[]) {
  const state = new BatchState(read);
  let serial = 0;
  return commands.map((command) => {
    const against = state.stateFor(needsOf(command, null));
    if (!against) throw new Error(`${command.txId} cannot be decided on the coins read`);
    const decision: Decision = decideRequest(
      { command, settings: { holdHours: 24, now: () => NOW, newSerial: () => `PKS-${++serial}` }, metadata: {} },
      against,
      null,
    );
    if (decision.refused) throw decision.refused;
    state.apply(decision.events);
    return decision;
  });
}

describe('the rows a batch commits', () => {
  it('writes each wallet and coin once, as the whole batch leaves it', () => {
    const read = readState();
    // Ann pays bob 300 (her coin splits into 300 and 700), and bob pays that 300 on to cat.
    const batch = commitBatch(
      read,
      decideInTurn(read, [transfer('tx-1', 'ann', 'bob', 300), transfer('tx-2', 'bob', 'cat', 300)]),
    );

    expect(batch.wallets).toEqual([
      { wallet_id: ann, total: 700, available: 700, withdrawable: 700, reserved: 0, version: 5 },
      // Bob received on hold and paid it on: his balance moved twice.
      { wallet_id: bob, total: 0, available: 0, withdrawable: 0, reserved: 0, version: 6 },
      { wallet_id: cat, total: 300, available: 300, withdrawable: 0, reserved: 0, version: 5 },
    ]);
    expect(batch.coins_updated).toEqual([{ serial: 'PKS-ANN', holder: ann, status: 'split', tx_ids: ['tx-1'] }]);
    expect(
      batch.coins_created.map(({ serial, holder, value, status, parent_serial, tx_ids }) => ({
        serial,
        holder,
        value,
        status,
        parent_serial,
        tx_ids,
      })),
    ).toEqual([
      { serial: 'PKS-1', holder: cat, value: 300, status: 'held', parent_serial: 'PKS-ANN', tx_ids: ['tx-1', 'tx-2'] },
      { serial: 'PKS-2', holder: ann, value: 700, status: 'held', parent_serial: 'PKS-ANN', tx_ids: ['tx-1'] },
    ]);
    expect(batch.events.map((event) => (event as { stream_id: string }).stream_id)).toEqual([
      'ledger-tx-1',
      'ledger-tx-2',
    ]);
    expect(batch.entries.map((entry) => [(entry as { event: number }).event, (entry as { n: number }).n])).toEqual([
      [1, 0],
      [1, 1],
      [2, 0],
      [2, 1],
    ]);
    expect(batch.transactions_new.map((row) => row.tx_id)).toEqual(['tx-1', 'tx-2']);
    expect(batch.transactions_changed).toEqual([]);
  });

  it('refuses to write a wallet whose version the commit would not check', () => {
    const read = readState();
    const decisions = decideInTurn(read, [transfer('tx-1', 'ann', 'bob', 300)]);
    read.versions.delete(bob);

    expect(() => commitBatch(read, decisions)).toThrow(/changes wallet:bob:CON, which it did not read/);
  });
});
