import { sequencedAndSigned } from '../../testing/ledger-log.ts';
import { ownRecord, query, type RouteSamples, sample } from '../../testing/route-samples.ts';
import { paidByOwner } from '../../testing/wallet.ts';

/**
 * A request each route of this feature serves, keyed as fastify knows the
 * route, for the route-wide tests (authorization matrix, fuzz, malformed input).
 */
export const routeSamples: RouteSamples = {
  'GET /api/ledger/log-key': sample(() => ({})),
  'GET /api/ledger/checkpoint': sample(async (owner, subject) => {
    await paidByOwner(owner, subject);
    await sequencedAndSigned(subject);
    return {};
  }),
  'GET /api/ledger/proof/inclusion': sample(async (owner, subject) => {
    const txId = await paidByOwner(owner, subject);
    return query({ tx_id: txId, tree_size: await sequencedAndSigned(subject) });
  }, ownRecord),
  'GET /api/ledger/proof/consistency': sample(async (owner, subject) => {
    await paidByOwner(owner, subject);
    return query({ from: 1, to: await sequencedAndSigned(subject) });
  }),
  'GET /api/operations/ledger-log': sample(() => ({})),
};
