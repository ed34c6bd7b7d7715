import { ownLedgerId, paidByOwner } from '../../testing/wallet.ts';
import { body, ownRecord, query, type RouteSamples, sample } from '../../testing/route-samples.ts';

/**
 * A request each route of this feature serves, keyed as fastify knows the
 * route, for the route-wide tests (authorization matrix, fuzz, malformed input).
 */
export const routeSamples: RouteSamples = {
  'GET /api/account/balance': sample(() => ({})),
  'POST /api/account/ledger': sample(() => body({ offset: 0, limit: 15 }), {
    optional: ['offset', 'limit'],
    bodyOptional: true,
  }),
  'POST /api/account/ledger-details': sample(
    async (owner, subject) => body({ id: await ownLedgerId(owner, subject) }),
    ownRecord,
  ),
  'POST /api/account/transactions': sample(() => body({ offset: 0, limit: 15 }), {
    optional: ['offset', 'limit'],
    bodyOptional: true,
  }),
  'POST /api/account/transaction-details': sample(
    async (owner, subject) => body({ id: await paidByOwner(owner, subject) }),
    ownRecord,
  ),
  'POST /api/account/forex-lookup': sample(() => body({ currency: 'USD' })),
  'GET /api/wallet/list-coins': sample(() => query({ offset: 0, limit: 50 })),
  // The WebSocket of live updates; a plain GET, as the table sends, is 426 Upgrade Required (see live.test.ts for the socket).
  'GET /api/live': sample(() => ({})),
  'GET /api/wallet/list-audit': sample(
    async (owner, subject) => query({ reference_no: await paidByOwner(owner, subject) }),
    ownRecord,
  ),
};
