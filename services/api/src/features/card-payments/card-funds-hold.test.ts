import { balanceResponse, errorCodes, transactionResponse } from '@peeks/contracts';
import { userOwnerId } from '@peeks/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import { storedBank, storedCard } from '../../testing/payment-methods.ts';
import { expectRefusal } from '../../testing/requests.ts';
import { transfer } from '../../testing/wallet.ts';

/** One hour, so that the clock can pass it while sessions (30 minutes idle) stay alive. */
const CARD_FUNDS_HOLD_HOURS = 1;
let now = new Date('2026-11-21T10:00:00Z');
let subject: TestApp;
beforeAll(async () => {
  subject = await createTestApp({
    ...testAppOptions,
    holdHours: 0,
    cardFundsHoldHours: CARD_FUNDS_HOLD_HOURS,
    clock: () => now,
  });
});
afterAll(() => subject.close());

const owner = (who: SignedIn) => userOwnerId(who.user.user_id);
const balanceOf = async (who: SignedIn) => {
  const response = await who.browser.request('GET', '/api/account/balance');
  expect(response.statusCode, response.body).toBe(200);
  return balanceResponse.parse(response.json()).balance;
};
/** Moves the clock on in steps the sessions of `people` outlive, each of them reading their balance at every step. */
async function pass(minutes: number, people: SignedIn[]) {
  for (let left = minutes; left > 0; left -= 20) {
    now = new Date(now.getTime() + Math.min(left, 20) * 60_000);
    for (const who of people) await balanceOf(who);
  }
}
const buy = async (who: SignedIn, coins: number) => {
  const card = await storedCard(subject, who);
  const response = await who.browser.post('/api/account/purchase', {
    payment_method_id: card,
    coin_amt: coins,
    currency: 'USD',
  });
  expect(response.statusCode, response.body).toBe(200);
  return transactionResponse.parse(response.json()).transaction;
};
const withdraw = async (who: SignedIn, amount: number) =>
  who.browser.post('/api/account/withdraw', { amount, currency: 'CON', paymentMethodId: await storedBank(who) });

describe('coins bought by card', () => {
  it('cannot be withdrawn as cash at once; the refusal and the balance say when they can', async () => {
    const who = await signedUp(subject, 'personal');
    await buy(who, 10_000);
    const maturesAt = new Date(now.getTime() + CARD_FUNDS_HOLD_HOURS * 3_600_000).toISOString();

    const refused = await withdraw(who, 5_000);
    expectRefusal(refused, 422, errorCodes.cardFundsMaturing, 'coins just bought by card');
    expect(refused.json<{ message: string }>().message).toBe(
      `Coins bought by card can be withdrawn as cash from ${maturesAt}`,
    );
    expect(await balanceOf(who)).toMatchObject({
      available_balance: 10_000,
      withdrawable_balance: 0,
      card_funds_on_hold: 10_000,
      card_funds_release_at: maturesAt,
      next_hold_release_at: maturesAt,
    });
  });

  it('can be withdrawn as cash once the card funds hold has passed', async () => {
    const who = await signedUp(subject, 'personal');
    await buy(who, 10_000);
    await pass(CARD_FUNDS_HOLD_HOURS * 60, [who]);
    expect(await balanceOf(who)).toMatchObject({
      withdrawable_balance: 10_000,
      card_funds_on_hold: 0,
      card_funds_release_at: null,
    });
    const response = await withdraw(who, 5_000);
    expect(response.statusCode, response.body).toBe(200);
    expect(transactionResponse.parse(response.json()).transaction).toMatchObject({ state: 'pending', amount: 5_000 });
  });

  it('under concurrent withdrawals, only matured coins are ever reserved, and each key reserves once', async () => {
    const who = await signedUp(subject, 'personal');
    await buy(who, 10_000);
    await pass(CARD_FUNDS_HOLD_HOURS * 60, [who]);
    await buy(who, 10_000); // not matured: 10_000 of the 20_000 can be withdrawn as cash
    const bank = await storedBank(who);
    const keyed = (key: string) =>
      who.browser.request(
        'POST',
        '/api/account/withdraw',
        { amount: 3_000, currency: 'CON', paymentMethodId: bank },
        { 'idempotency-key': key },
      );
    const answers = await Promise.all(['a', 'a', 'b', 'b', 'c', 'd', 'e', 'f'].map((key) => keyed(`cash-out-${key}`)));
    const accepted = answers.filter((answer) => answer.statusCode === 200);
    expect(new Set(accepted.map((answer) => transactionResponse.parse(answer.json()).transaction.tx_id)).size).toBe(3);
    for (const answer of answers.filter((each) => each.statusCode !== 200))
      expectRefusal(answer, 422, errorCodes.cardFundsMaturing, 'past the matured coins');
    expect(await balanceOf(who)).toMatchObject({
      available_balance: 11_000,
      withdrawable_balance: 1_000,
      card_funds_on_hold: 10_000,
    });
    const reserved = await subject.database.db
      .selectFrom('coins')
      .select(['value', 'matures_at'])
      .where('holder', '=', `wallet:${owner(who)}:CON`)
      .where('status', '=', 'reserved')
      .execute();
    expect(reserved.reduce((sum, coin) => sum + coin.value, 0)).toBe(9_000);
    for (const coin of reserved) expect(coin.matures_at?.getTime()).toBeLessThanOrEqual(now.getTime());
  });

  it('can be sent and paid with at once, but the receiver cannot cash them out before they mature', async () => {
    const buyer = await signedUp(subject, 'personal');
    const receiver = await signedUp(subject, 'personal');
    await buy(buyer, 10_000);
    // No hold on money from others in this app (holdHours 0): only the coins' maturity stands in the way.
    await transfer(subject, owner(buyer), owner(receiver), 4_000);
    expect(await balanceOf(receiver)).toMatchObject({
      available_balance: 4_000,
      withdrawable_balance: 0,
      card_funds_on_hold: 4_000,
    });
    expectRefusal(await withdraw(receiver, 4_000), 422, errorCodes.cardFundsMaturing, 'received coins bought by card');

    await pass(CARD_FUNDS_HOLD_HOURS * 60, [buyer, receiver]);
    const response = await withdraw(receiver, 4_000);
    expect(response.statusCode, response.body).toBe(200);
    expect(await balanceOf(buyer)).toMatchObject({ available_balance: 6_000, withdrawable_balance: 6_000 });
  });
});
