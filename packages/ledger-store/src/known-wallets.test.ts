import { walletIdOf, type LedgerNeeds, type WalletState } from '@peeks/ledger';
import { describe, expect, it } from 'vitest';
import { KnownWallets, withRead } from './known-wallets.ts';

const ann = walletIdOf('ann', 'CON');
const bob = walletIdOf('bob', 'CON');
const cat = walletIdOf('cat', 'CON');

function wallet(walletId: string, total: number): WalletState {
  return {
    walletId,
    ownerId: walletId.split(':')[1] ?? '',
    currency: 'CON',
    status: 'open',
    total,
    available: total,
    withdrawable: total,
    reserved: 0,
  };
}

/** Ann pays `amount` to `to`. */
const pays = (amount: number, to = bob): LedgerNeeds => ({ wallets: [ann, to], coins: { walletId: ann, amount } });

describe('the wallets a group commit knows', () => {
  it('serves a batch whose wallets it knows without a read, at the versions it knows', () => {
    const known = new KnownWallets(10);
    known.remember(ann, { wallet: wallet(ann, 900), version: 4, coins: [{ serial: 'A1', value: 900 }] });
    known.remember(bob, { wallet: wallet(bob, 50), version: 7 });

    const { known: state, toRead } = known.recall([pays(300)]);

    expect(toRead).toEqual([]);
    expect(state.versions).toEqual(
      new Map([
        [ann, 4],
        [bob, 7],
      ]),
    );
    expect(state.wallets.get(ann)?.total).toBe(900);
    expect(state.coins).toEqual(new Map([[ann, [{ serial: 'A1', value: 900 }]]]));
  });

  it('reads a wallet it does not know, and leaves it out of what it knows', () => {
    const known = new KnownWallets(10);
    known.remember(ann, { wallet: wallet(ann, 900), version: 4, coins: [{ serial: 'A1', value: 900 }] });

    const { known: state, toRead } = known.recall([pays(300, cat)]);

    expect(toRead).toEqual([{ wallets: [cat], coins: null }]);
    expect([...state.wallets.keys()]).toEqual([ann]);
  });

  it('reads a spender whose coins it never read, or whose known coins fall short of what the batch pays from it', () => {
    const known = new KnownWallets(10);
    known.remember(bob, { wallet: wallet(bob, 900), version: 1 });
    // Some of ann's coins were left unread: the 500 known cannot say whether 300 + 300 is covered.
    known.remember(ann, {
      wallet: wallet(ann, 900),
      version: 2,
      coins: [{ serial: 'A1', value: 500 }],
      readUpTo: { serial: 'A1', value: 500 },
    });

    const bobPays: LedgerNeeds = { wallets: [bob, cat], coins: { walletId: bob, amount: 10 } };
    expect(known.recall([bobPays]).toRead).toEqual([
      { wallets: [bob, cat], coins: null },
      { wallets: [], coins: { walletId: bob, amount: 10 } },
    ]);
    expect(known.recall([pays(300)]).toRead).toEqual([]);
    const { known: state, toRead } = known.recall([pays(300), pays(300)]);
    expect(toRead).toEqual([
      { wallets: [ann], coins: null },
      { wallets: [], coins: { walletId: ann, amount: 600 } },
    ]);
    expect([...state.wallets.keys()]).toEqual([bob]);
  });

  it('reads the wallets it is told not to trust, to confirm a refusal', () => {
    const known = new KnownWallets(10);
    known.remember(ann, { wallet: wallet(ann, 900), version: 4, coins: [] });
    known.remember(bob, { wallet: wallet(bob, 50), version: 7 });

    expect(known.recall([pays(1_000)], new Set([ann, bob])).toRead).toEqual([
      { wallets: [ann, bob], coins: null },
      { wallets: [], coins: { walletId: ann, amount: 1_000 } },
    ]);
  });

  it('forgets what it is told to, and the wallet it remembered longest ago past its capacity', () => {
    const known = new KnownWallets(2);
    known.remember(ann, { wallet: wallet(ann, 1), version: 1 });
    known.remember(bob, { wallet: wallet(bob, 2), version: 1 });
    known.remember(ann, { wallet: wallet(ann, 1), version: 2 });
    known.remember(cat, { wallet: wallet(cat, 3), version: 1 });

    expect(known.size).toBe(2);
    expect(known.recall([{ wallets: [bob], coins: null }]).toRead).toEqual([{ wallets: [bob], coins: null }]);
    expect(known.recall([{ wallets: [ann, cat], coins: null }]).toRead).toEqual([]);
    known.forget([ann]);
    expect(known.recall([{ wallets: [ann, cat], coins: null }]).toRead).toEqual([{ wallets: [ann], coins: null }]);
  });

  it('keeps the first 16 coins of a wallet, and counts the rest as unread', () => {
    const known = new KnownWallets(10);
    const coins = Array.from({ length: 40 }, (_, index) => ({
      serial: `A${String(index).padStart(2, '0')}`,
      value: 100,
    }));
    known.remember(ann, { wallet: wallet(ann, 4_000), version: 1, coins });

    const burns = (amount: number): LedgerNeeds => ({ wallets: [ann], coins: { walletId: ann, amount } });
    const { known: state, toRead } = known.recall([burns(1_600)]);
    expect(toRead).toEqual([]);
    expect(state.coins.get(ann)).toEqual(coins.slice(0, 16));
    expect(state.readUpTo.get(ann)).toEqual(coins[15]);
    expect(known.recall([burns(1_700)]).toRead).toEqual([
      { wallets: [ann], coins: null },
      { wallets: [], coins: { walletId: ann, amount: 1_700 } },
    ]);
  });

  it('keeps its own copy of what it is told, updated in place', () => {
    const known = new KnownWallets(10);
    const told = wallet(ann, 900);
    const coins = [{ serial: 'A1', value: 900 }];
    known.remember(ann, { wallet: told, version: 4, coins });
    told.total = 1;
    coins.pop();
    const first = known.recall([{ wallets: [ann], coins: null }]).known;
    expect(first.wallets.get(ann)?.total).toBe(900);
    expect(first.coins.get(ann)).toEqual([{ serial: 'A1', value: 900 }]);

    known.remember(ann, { wallet: wallet(ann, 700), version: 5, coins: [{ serial: 'A2', value: 700 }] });
    const second = known.recall([{ wallets: [ann], coins: null }]).known;
    expect(second.wallets.get(ann)).toBe(first.wallets.get(ann));
    expect(second.wallets.get(ann)?.total).toBe(700);
    expect(second.versions.get(ann)).toBe(5);
    expect(second.coins.get(ann)).toEqual([{ serial: 'A2', value: 700 }]);
  });

  it('reads a doubted wallet, and one another process moved for a minute after', () => {
    let now = 0;
    const known = new KnownWallets(10, () => now);
    known.remember(ann, { wallet: wallet(ann, 900), version: 4, coins: [] });
    known.remember(bob, { wallet: wallet(bob, 50), version: 7 });
    const both = { wallets: [ann, bob], coins: null };
    known.doubt([ann, bob]);
    expect(known.recall([both]).toRead).toEqual([{ wallets: [ann, bob], coins: null }]);

    // Read again: bob is where he was, ann moved elsewhere.
    known.noteRead(
      new Map([
        [ann, 6],
        [bob, 7],
      ]),
    );
    known.remember(ann, { wallet: wallet(ann, 800), version: 6, coins: [] });
    known.remember(bob, { wallet: wallet(bob, 50), version: 7 });
    expect(known.recall([both]).toRead).toEqual([{ wallets: [ann], coins: null }]);
    now = 59_999;
    expect(known.recall([both]).toRead).toEqual([{ wallets: [ann], coins: null }]);
    now = 60_000;
    expect(known.recall([both]).toRead).toEqual([]);
  });

  it('following announcements, forgets a wallet announced at a newer version, and reads a doubted one that moved only once', () => {
    const known = new KnownWallets(10, () => 0);
    known.following = true;
    known.remember(ann, { wallet: wallet(ann, 900), version: 4, coins: [] });
    known.remember(bob, { wallet: wallet(bob, 50), version: 7 });
    const both = { wallets: [ann, bob], coins: null };

    // Its own commit's announcement names the versions it knows already.
    known.announced(ann, 4);
    known.announced(bob, 6);
    expect(known.recall([both]).toRead).toEqual([]);
    known.announced(ann, 5);
    expect(known.recall([both]).toRead).toEqual([{ wallets: [ann], coins: null }]);

    // A commit refused before the announcement came: read once, then known again.
    known.remember(ann, { wallet: wallet(ann, 800), version: 5, coins: [] });
    known.doubt([ann]);
    known.noteRead(new Map([[ann, 6]]));
    known.remember(ann, { wallet: wallet(ann, 700), version: 6, coins: [] });
    expect(known.recall([both]).toRead).toEqual([]);

    known.forgetAll();
    expect(known.recall([both]).toRead).toEqual([{ wallets: [ann, bob], coins: null }]);
  });

  it('puts a read beside what is known', () => {
    const known = new KnownWallets(10);
    known.remember(ann, {
      wallet: wallet(ann, 900),
      version: 4,
      coins: [{ serial: 'A1', value: 900 }],
      readUpTo: { serial: 'A1', value: 900 },
    });
    const { known: state } = known.recall([{ wallets: [ann], coins: null }]);
    const read = {
      wallets: new Map([[bob, wallet(bob, 5)]]),
      versions: new Map([[bob, 9]]),
      coins: new Map([[bob, [{ serial: 'B1', value: 5 }]]]),
      readUpTo: new Map(),
    };

    expect(withRead(state, read)).toEqual({
      wallets: new Map([
        [ann, wallet(ann, 900)],
        [bob, wallet(bob, 5)],
      ]),
      versions: new Map([
        [ann, 4],
        [bob, 9],
      ]),
      coins: new Map([
        [ann, [{ serial: 'A1', value: 900 }]],
        [bob, [{ serial: 'B1', value: 5 }]],
      ]),
      readUpTo: new Map([[ann, { serial: 'A1', value: 900 }]]),
    });
  });
});
