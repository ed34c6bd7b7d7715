import { saleToOwner, settlementOfOwner } from '../../testing/merchant-space.ts';
import { body, ownRecord, query, type RouteSamples, sample } from '../../testing/route-samples.ts';

/**
 * A request each route of this feature serves, keyed as fastify knows the
 * route, for the route-wide tests (authorization matrix, fuzz, malformed input).
 */
export const routeSamples: RouteSamples = {
  'POST /api/merchant/return-sale': sample(
    async (owner, subject) => body({ tx_id: await saleToOwner(owner, subject), amount: 1_00, reason: 'Damaged' }),
    ownRecord,
  ),
  'GET /api/merchant/dashboard': sample(() => ({})),
  'GET /api/merchant/transfers': sample(() => query({ offset: 0, limit: 10 })),
  'GET /api/merchant/returns': sample(() => query({ offset: 0, limit: 10 })),
  'GET /api/merchant/sale': sample(
    async (owner, subject) => query({ tx_id: await saleToOwner(owner, subject) }),
    ownRecord,
  ),
  'GET /api/merchant/settlements': sample(() => query({ offset: 0, limit: 10 })),
  'GET /api/merchant/settlement': sample(
    async (owner, subject) => query({ batch_id: await settlementOfOwner(owner, subject) }),
    ownRecord,
  ),
  'GET /api/merchant/report': sample(() => query({ from: '2026-01-01', to: '2026-12-31' })),
  'GET /api/merchant/report.csv': sample(() => query({ from: '2026-01-01', to: '2026-12-31' })),
};
