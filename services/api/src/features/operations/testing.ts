import { personResponse } from '@peeks/contracts';
import { userOwnerId, walletIdOf } from '@peeks/ledger';
import { fund } from '../../testing/money.ts';
import type { TestApp } from '../../testing/app.ts';
import { type SignedIn, signedUp } from '../../testing/merchants.ts';
import {
  enteredDeposit,
  flaggedBitcoinDeposit,
  pendingBan,
  pendingCorrection,
  requestedWithdrawal,
} from '../../testing/operations.ts';
import { body, query, type RouteSamples, sample } from '../../testing/route-samples.ts';

const ownerIdOf = (owner: SignedIn) => userOwnerId(owner.user.user_id);
/** A deposit waiting for the transfer it names, as the clearing form would describe that transfer. */
async function receivedTransfer(owner: SignedIn, subject: TestApp) {
  const deposit = await enteredDeposit(subject, ownerIdOf(owner));
  return {
    tx_id: deposit.txId,
    amount_received: deposit.amount,
    currency: deposit.currency,
    reference: deposit.reference,
  };
}
async function newWithdrawal(owner: SignedIn, subject: TestApp): Promise<string> {
  await fund(subject, ownerIdOf(owner), 20_00);
  return requestedWithdrawal(subject, ownerIdOf(owner), 20_00);
}
/** A coin the owner holds, minted by a correction. */
async function newCoin(owner: SignedIn, subject: TestApp): Promise<string> {
  await fund(subject, ownerIdOf(owner), 10_00);
  const coin = await subject.database.db
    .selectFrom('coins')
    .select('serial')
    .where('holder', '=', walletIdOf(ownerIdOf(owner), 'CON'))
    .executeTakeFirstOrThrow();
  return coin.serial;
}

/**
 * A request each route of this feature serves, keyed as fastify knows the
 * route, for the route-wide tests (authorization matrix, fuzz, malformed input).
 */
export const routeSamples: RouteSamples = {
  'GET /api/operations/deposits': sample(() => query({ method: 'interac', limit: 20 })),
  'POST /api/operations/clear-deposit': sample(async (owner, subject) => body(await receivedTransfer(owner, subject))),
  'POST /api/operations/reject-deposit': sample(async (owner, subject) =>
    body({ tx_id: (await enteredDeposit(subject, ownerIdOf(owner))).txId, reason: 'No transfer arrived' }),
  ),
  'GET /api/operations/withdrawals': sample(() => query({ currency: 'CON' })),
  'POST /api/operations/process-withdrawal': sample(async (owner, subject) =>
    body({ tx_id: await newWithdrawal(owner, subject), payout_reference: 'PAYOUT-1' }),
  ),
  'POST /api/operations/fail-withdrawal': sample(async (owner, subject) =>
    body({ tx_id: await newWithdrawal(owner, subject), reason: 'Card closed' }),
  ),
  'POST /api/operations/correct-balance': sample((owner) =>
    body({ user_id: owner.user.user_id, currency: 'CON', amount: 10_00, reason: 'Goodwill credit' }),
  ),
  'GET /api/operations/corrections': sample(() => query({ limit: 10 })),
  'POST /api/operations/approve-correction': sample(async (owner, subject) =>
    body({ correction_id: await pendingCorrection(subject, ownerIdOf(owner)) }),
  ),
  'POST /api/operations/reject-correction': sample(async (owner, subject) =>
    body({ correction_id: await pendingCorrection(subject, ownerIdOf(owner)), reason: 'No double charge found' }),
  ),
  'GET /api/operations/coin-trail': sample(async (owner, subject) => query({ serial: await newCoin(owner, subject) })),
  'GET /api/operations/events': sample(() => query({ stream: 'ledger-', limit: 10 })),
  'GET /api/operations/ledger-verify': sample(() => ({})),
  'POST /api/operations/ledger-verify': sample(() => body({}), { bodyOptional: true }),
  'GET /api/operations/platform-balances': sample(() => ({})),
  'GET /api/operations/emails': sample(() => query({ state: 'unsent', limit: 10 })),
  'GET /api/operations/bitcoin-deposits': sample(() => query({ state: 'flagged', limit: 10 })),
  'GET /api/operations/overview': sample(() => ({})),
  'GET /api/operations/people': sample((owner) => query({ q: owner.user.username.slice(0, 4), limit: 5 })),
  'GET /api/operations/person': sample((owner) => query({ user_id: owner.user.user_id })),
  'GET /api/operations/audit': sample(() => query({ limit: 10 })),
  'POST /api/operations/revoke-session': sample(async (owner, subject) => {
    const person = await signedUp(subject, 'personal');
    const view = await owner.browser.get(`/api/operations/person?user_id=${String(person.user.user_id)}`);
    const [session] = personResponse.parse(view.json()).sessions;
    return body({ user_id: person.user.user_id, session_id: session?.session_id ?? '', reason: 'Lost phone' });
  }),
  'POST /api/operations/ban-user': sample(async (_owner, subject) =>
    body({ user_id: (await signedUp(subject, 'personal')).user.user_id, reason: 'Chargeback fraud' }),
  ),
  'GET /api/operations/bans': sample(() => query({ limit: 10 })),
  'POST /api/operations/approve-ban': sample(async (_owner, subject) => body({ ban_id: await pendingBan(subject) })),
  'POST /api/operations/reject-ban': sample(async (_owner, subject) =>
    body({ ban_id: await pendingBan(subject), reason: 'Not the operator in the report' }),
  ),
  'POST /api/operations/unban-user': sample(async (_owner, subject) =>
    body({ user_id: (await signedUp(subject, 'personal')).user.user_id, reason: 'Cleared by support' }),
  ),
  'POST /api/operations/resolve-bitcoin-deposit': sample(
    async (owner, subject) => {
      const deposit = await flaggedBitcoinDeposit(subject, owner.user.user_id, {
        flag: 'underpaid',
        confirmedSats: 15_000,
      });
      return body({ tx_id: deposit.txId, resolution: 'credit', reason: 'The user sent what they had' });
    },
    { optional: ['refund_address'] },
  ),
};
