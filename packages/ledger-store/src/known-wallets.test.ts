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

  it('following announcements, knows a wallet at the balances announced with it, and reads it only to spend from it', () => {
    const known = new KnownWallets(10, () => 0);
    known.following = true;
    known.remember(ann, { wallet: wallet(ann, 900), version: 4, coins: [{ serial: 'A1', value: 900 }] });
    known.remember(bob, { wallet: wallet(bob, 50), version: 7, coins: [{ serial: 'B1', value: 50 }] });

    // Another process paid 100 from Ann to Bob.
    known.announced(ann, 5, { total: 800, available: 800, withdrawable: 800, reserved: 0 });
    known.announced(bob, 8, { total: 150, available: 150, withdrawable: 100, reserved: 0 });

    // Bob paid into: known at the new version with the new balances, no read.
    const intoBob = known.recall([{ wallets: [cat, bob], coins: { walletId: cat, amount: 10 } }]);
    expect(intoBob.toRead).toEqual([
      { wallets: [cat], coins: null },
      { wallets: [], coins: { walletId: cat, amount: 10 } },
    ]);
    expect(intoBob.known.versions.get(bob)).toBe(8);
    expect(intoBob.known.wallets.get(bob)).toEqual({ ...wallet(bob, 150), withdrawable: 100 });
    // Its coins moved elsewhere: none are known, so none can be spent on what was known.
    expect(intoBob.known.coins.has(bob)).toBe(false);

    // Ann pays: her coin A1 may be gone, so she is read first, at whatever version she is at now.
    expect(known.recall([pays(100)]).toRead).toEqual([
      { wallets: [ann], coins: null },
      { wallets: [], coins: { walletId: ann, amount: 100 } },
    ]);

    // Once her coins are read again, a payment from her needs no read.
    known.remember(ann, { wallet: wallet(ann, 800), version: 5, coins: [{ serial: 'A2', value: 800 }] });
    expect(known.recall([pays(100)]).toRead).toEqual([]);
  });

  it('keeps the known coins of a wallet that only received elsewhere, those ranking ahead of every coin received', () => {
    const known = new KnownWallets(10, () => 0);
    known.following = true;
    const coins = [
      { serial: 'A1', value: 500 },
      { serial: 'A2', value: 300 },
      { serial: 'A3', value: 100 },
    ];
    known.remember(ann, { wallet: wallet(ann, 900), version: 4, coins });
    const spends = (amount: number): LedgerNeeds => ({ wallets: [ann], coins: { walletId: ann, amount } });
    const balances = { total: 1_100, available: 1_100, withdrawable: 900, reserved: 0 };

    // Received coins of at most 300: A1 still ranks first; A2 and A3 may rank after a coin received, so they go.
    known.announced(ann, 5, balances, { spent: false, received: 300 });
    const { known: state, toRead } = known.recall([spends(400)]);
    expect(toRead).toEqual([]);
    expect(state.versions.get(ann)).toBe(5);
    expect(state.coins.get(ann)).toEqual([{ serial: 'A1', value: 500 }]);
    expect(state.readUpTo.get(ann)).toEqual({ serial: 'A1', value: 500 });
    // More than the coins kept: read.
    expect(known.recall([spends(600)]).toRead).toEqual([
      { wallets: [ann], coins: null },
      { wallets: [], coins: { walletId: ann, amount: 600 } },
    ]);
    // What the recall handed out is its own: a later announcement leaves it be.
    known.announced(ann, 6, balances, { spent: false, received: 600 });
    expect(state.coins.get(ann)).toEqual([{ serial: 'A1', value: 500 }]);
    // A coin received worth more than every coin known: none are known to rank first any more.
    expect(known.recall([spends(100)]).toRead).toHaveLength(2);

    // Balances moved with no coin received (a hold released, say): the coins stay as they were.
    known.remember(ann, { wallet: wallet(ann, 900), version: 7, coins });
    known.announced(ann, 8, balances, { spent: false, received: 0 });
    expect(known.recall([spends(900)]).known.coins.get(ann)).toEqual(coins);
    // Spent from: none stay.
    known.announced(ann, 9, balances, { spent: true });
    expect(known.recall([spends(1)]).toRead).toHaveLength(2);
  });

  it('carries the coins it knew through a batch that read the wallet without them, at the version it knew', () => {
    const known = new KnownWallets(10, () => 0);
    const coins = [
      { serial: 'A1', value: 500 },
      { serial: 'A2', value: 100 },
    ];
    const spends = (amount: number): LedgerNeeds => ({ wallets: [ann], coins: { walletId: ann, amount } });
    known.remember(ann, { wallet: wallet(ann, 600), version: 4, coins });

    // A batch read Ann at 4 as a payee (no coins) and paid her a coin of 200: A1 still ranks first.
    known.remember(ann, {
      wallet: wallet(ann, 800),
      version: 5,
      coinsSince: { version: 4, moved: { spent: false, received: 200 } },
    });
    const { known: state, toRead } = known.recall([spends(300)]);
    expect(toRead).toEqual([]);
    expect(state.coins.get(ann)).toEqual([{ serial: 'A1', value: 500 }]);
    expect(state.readUpTo.get(ann)).toEqual({ serial: 'A1', value: 500 });

    // Read at a version other than the one known: what was known says nothing of it.
    known.remember(ann, {
      wallet: wallet(ann, 900),
      version: 8,
      coinsSince: { version: 7, moved: { spent: false, received: 0 } },
    });
    expect(known.recall([spends(300)]).toRead).toHaveLength(2);
  });

  it('keeps the newest version it heard of: an older announcement or batch changes nothing', () => {
    const known = new KnownWallets(10, () => 0);
    known.following = true;
    known.remember(bob, { wallet: wallet(bob, 50), version: 7 });
    known.announced(bob, 9, { total: 250, available: 250, withdrawable: 250, reserved: 0 });

    // A batch that read Bob at 8 commits after the announcement of 9 came.
    known.remember(bob, { wallet: wallet(bob, 150), version: 8 });
    known.announced(bob, 8, { total: 150, available: 150, withdrawable: 150, reserved: 0 });
    known.announced(bob, Number.NaN, { total: 1, available: 1, withdrawable: 1, reserved: 0 });

    const { known: state, toRead } = known.recall([{ wallets: [bob], coins: null }]);
    expect(toRead).toEqual([]);
    expect(state.versions.get(bob)).toBe(9);
    expect(state.wallets.get(bob)?.total).toBe(250);
  });

  it('forgets a wallet announced without balances (closed, or by the release before)', () => {
    const known = new KnownWallets(10, () => 0);
    known.following = true;
    known.remember(bob, { wallet: wallet(bob, 50), version: 7 });
    known.announced(bob, 8);
    expect(known.recall([{ wallets: [bob], coins: null }]).toRead).toEqual([{ wallets: [bob], coins: null }]);
  });

  it('leaves a batch in flight the wallet it recalled when an announcement comes', () => {
    const known = new KnownWallets(10, () => 0);
    known.following = true;
    known.remember(bob, { wallet: wallet(bob, 50), version: 7 });
    const inFlight = known.recall([{ wallets: [bob], coins: null }]).known;
    known.announced(bob, 8, { total: 150, available: 150, withdrawable: 150, reserved: 0 });
    expect(inFlight.wallets.get(bob)?.total).toBe(50);
    expect(inFlight.versions.get(bob)).toBe(7);
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
