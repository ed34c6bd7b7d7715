import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { platformAccount, walletIdOf } from './accounts.ts';
import { personalAuditLine } from './audit-view.ts';
import { spendCoins } from './coins.ts';
import { coinAuditOf } from './projection.ts';
import type { TransactionEvent } from './events.ts';

const owners = ['user-6', 'user-61', 'merchant-6'] as const;
const wallet = (owner: string) => walletIdOf(owner, 'CON');

/** The audit lines of a send of 300 out of one coin of 10,000: a split, then the paying part moved. */
function sendOutOfOneCoin(from: string, to: string) {
  let next = 0;
  const coins = spendCoins(
    [{ serial: 'PKS-PARENT', value: 10_000 }],
    wallet(from),
    [{ amount: 300, to: wallet(to) }],
    () => {
      next += 1;
      return `PKS-CHILD${String(next)}`;
    },
  );
  const event = { type: 'FundsTransferred', data: { txId: 'tx-1', coins } } as unknown as TransactionEvent;
  return coinAuditOf(event, new Date(0));
}

describe('personalAuditLine', () => {
  it("shows the sender every serial they held, in the spec's form", () => {
    const lines = sendOutOfOneCoin('user-6', 'user-61');
    expect(lines.map((line) => personalAuditLine(line, 'user-6'))).toEqual([
      { fromSerial: 'PKS-PARENT:wallet:user-6:CON:CON:10000', fromAnotherWallet: false },
      { fromSerial: 'PKS-CHILD1::CON:300', fromAnotherWallet: false },
      { fromSerial: 'PKS-CHILD2::CON:9700', fromAnotherWallet: false },
      { fromSerial: 'PKS-CHILD1:wallet:user-6:CON:CON:300', fromAnotherWallet: false },
    ]);
  });

  it("shows the receiver the coin received and nothing of the sender's coins, wallet or balance", () => {
    const lines = sendOutOfOneCoin('user-6', 'user-61');
    expect(lines.map((line) => personalAuditLine(line, 'user-61'))).toEqual([
      { fromSerial: null, fromAnotherWallet: true },
      { fromSerial: null, fromAnotherWallet: true },
      { fromSerial: null, fromAnotherWallet: true },
      { fromSerial: 'PKS-CHILD1::CON:300', fromAnotherWallet: true },
    ]);
  });

  it("names platform accounts, which are no one's wallet", () => {
    const fee = {
      serial: 'PKS-FEE',
      fromAccount: platformAccount('fees', 'CON'),
      toAccount: wallet('user-6'),
      value: 5,
    };
    expect(personalAuditLine(fee, 'user-6')).toEqual({
      fromSerial: 'PKS-FEE:platform:fees:CON:CON:5',
      fromAnotherWallet: false,
    });
  });

  it("never names another owner's wallet, and shows a serial exactly when the viewer's wallet held it", () => {
    const account = fc.constantFrom<string | null>(
      null,
      platformAccount('fees', 'CON'),
      platformAccount('settlement', 'CON'),
      ...owners.map(wallet),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...owners),
        account,
        account,
        fc.nat({ max: 10_000_000 }),
        (viewer, fromAccount, toAccount, value) => {
          const seen = personalAuditLine({ serial: 'PKS-0A', fromAccount, toAccount, value }, viewer);
          const others = owners.filter((owner) => owner !== viewer).map((owner) => `${wallet(owner)}:`);
          expect(others.some((other) => seen.fromSerial?.includes(other))).toBe(false);
          const held = fromAccount === wallet(viewer) || toAccount === wallet(viewer);
          expect(seen.fromSerial !== null).toBe(held);
          if (seen.fromSerial !== null) expect(seen.fromSerial).toMatch(new RegExp(`^PKS-0A:.*:CON:${String(value)}$`));
        },
      ),
    );
  });
});
