import { byPreference, needsOf, walletIdOf, type Coin, type LedgerCommand, type WalletState } from '@peeks/ledger';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BatchState } from './batch-state.ts';
import { decideRequest } from './decide.ts';
import type { ReadState } from './types.ts';

const OWNERS = ['ann', 'bob', 'cat'];
const NOW = new Date('2026-11-22T00:00:00Z');

const coinsOf = (owner: string) =>
  fc
    .uniqueArray(
      fc.record({ serial: fc.stringMatching(/^PKS-[0-9A-F]{4}$/), value: fc.integer({ min: 1, max: 900 }) }),
      {
        selector: (coin) => coin.serial,
        maxLength: 30,
      },
    )
    .map((coins) => coins.map((coin) => ({ ...coin, serial: `${coin.serial}-${owner}` })).sort(byPreference));

const transfers = fc.array(
  fc
    .record({ from: fc.constantFrom(0, 1), to: fc.constantFrom(0, 1, 2), amount: fc.integer({ min: 1, max: 2_000 }) })
    .filter(({ from, to }) => from !== to),
  { minLength: 1, maxLength: 25 },
);

function wallet(owner: string, coins: readonly Coin[]): WalletState {
  const total = coins.reduce((sum, coin) => sum + coin.value, 0);
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

/** What `ledger_state` returns when it read the first `read` coins of each spender (all of them when there are no more). */
function readState(inventories: readonly Coin[][], read: readonly number[]): ReadState {
  const state: ReadState = { wallets: new Map(), versions: new Map(), coins: new Map(), readUpTo: new Map() };
  for (const [index, owner] of OWNERS.entries()) {
    const coins = inventories[index] ?? [];
    const walletId = walletIdOf(owner, 'CON');
    state.wallets.set(walletId, wallet(owner, coins));
    state.versions.set(walletId, 1);
    if (index === 2) continue; // a payee only: its coins are not read
    const prefix = coins.slice(0, read[index]);
    state.coins.set(walletId, prefix);
    const last = prefix.at(-1);
    if (prefix.length < coins.length && last) state.readUpTo.set(walletId, last);
  }
  return state;
}

describe('a batch decided in turn', () => {
  it('decides each command as it would be decided against every coin, or leaves it for a fresh read', () => {
    fc.assert(
      fc.property(
        fc.tuple(coinsOf('ann'), coinsOf('bob'), coinsOf('cat')),
        // At least one coin read: `ledger_state` reads 16 or more, so a read that finds none has read them all.
        fc.tuple(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 30 })),
        transfers,
        (inventories, read, moves) => {
          // The same batch twice: against the prefixes read, and against every coin.
          const partial = new BatchState(readState(inventories, read));
          const everything = new BatchState(readState(inventories, [Infinity, Infinity]));
          let decidedWithPrefix = 0;
          for (const [index, { from, to, amount }] of moves.entries()) {
            const command: LedgerCommand = {
              type: 'Transfer',
              txId: `tx-${index}`,
              kind: 'P2P',
              fromOwnerId: OWNERS[from] ?? '',
              toOwnerId: OWNERS[to] ?? '',
              amount,
              fee: 0,
              currency: 'CON',
              memo: null,
            };
            const needs = needsOf(command, null);
            const truth = decide(command, everything.stateFor(needs));
            const seen = partial.stateFor(needs);
            // Undecidable on the prefix: it waits for a later batch, and the batch goes on without it.
            if (!seen) continue;
            expect(decide(command, seen)).toEqual(truth);
            decidedWithPrefix += 1;
            if (!truth.refused) {
              partial.apply(truth.events);
              everything.apply(truth.events);
            }
          }
          // The first command always gets a decision when the read covers it.
          const first = moves[0];
          const firstCovered = first && read[first.from] >= inventories[first.from].length;
          if (firstCovered) expect(decidedWithPrefix).toBeGreaterThan(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('carries balances and places a returning coin only where nothing unread can come before it', () => {
    const ann = [
      { serial: 'PKS-A1', value: 500 },
      { serial: 'PKS-A2', value: 400 },
      { serial: 'PKS-A3', value: 100 },
    ];
    const state = new BatchState(readState([ann, [], []], [2, 0]));
    const annWallet = walletIdOf('ann', 'CON');
    const against = state.stateFor({ wallets: [annWallet], coins: { walletId: annWallet, amount: 300 } });
    const decision = decide(
      {
        type: 'Transfer',
        txId: 'tx-1',
        kind: 'P2P',
        fromOwnerId: 'ann',
        toOwnerId: 'cat',
        amount: 300,
        fee: 0,
        currency: 'CON',
        memo: null,
      },
      against,
    );
    if (decision.refused) throw decision.refused;
    state.apply(decision.events);
    const after = state.stateFor({ wallets: [annWallet], coins: { walletId: annWallet, amount: 400 } });
    expect(after?.wallets.get(annWallet)).toMatchObject({ total: 700, available: 700, withdrawable: 700 });
    // 500 split into 300 paid and 200 change: the change would go after 400, the last coin read, so it is left out.
    expect(after?.coins.get(annWallet)).toEqual([{ serial: 'PKS-A2', value: 400 }]);
    // 600 is more than the 400 known, and coins were left unread: no decision here.
    expect(state.stateFor({ wallets: [annWallet], coins: { walletId: annWallet, amount: 600 } })).toBeNull();
  });
});

/** The events a command decides against a state, or its refusal; serials numbered per command, so that both sides draw the same ones. */
function decide(command: LedgerCommand, state: Pick<ReadState, 'wallets' | 'coins'> | null) {
  if (!state) throw new Error('no state to decide against');
  let serial = 0;
  const decision = decideRequest(
    {
      command,
      settings: { holdHours: 24, now: () => NOW, newSerial: () => `PKS-${command.txId}-${++serial}` },
      metadata: {},
    },
    state,
    null,
  );
  return decision.refused ? { refused: decision.refused } : { refused: undefined, events: decision.events };
}
