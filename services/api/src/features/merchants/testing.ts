import { terminalResponse } from '@peeks/contracts';
import { merchantEdit, type SignedIn, terminal } from '../../testing/merchants.ts';
import { body, fresh, made, ownRecord, query, type RouteSamples, sample } from '../../testing/route-samples.ts';

const newTerminal = (owner: SignedIn) =>
  made(
    owner,
    '/api/user/create-merchant-terminal',
    terminal(owner, { terminal_id: `POS-${fresh()}` }),
    (answer) => terminalResponse.parse(answer).merchantTerminal.merchant_terminal_id,
  );

/**
 * A request each route of this feature serves, keyed as fastify knows the
 * route, for the route-wide tests (authorization matrix, fuzz, malformed input).
 */
export const routeSamples: RouteSamples = {
  'GET /api/category': sample(() => ({})),
  'GET /api/category/subcategory': sample(() => query({ categoryId: 3 })),
  'POST /api/merchant/update-merchant': sample((owner) => body(merchantEdit({ merchant_id: owner.merchantId })), {
    ...ownRecord,
    optional: ['merchant_id'],
  }),
  'GET /api/merchant-terminal/list': sample((owner) => query({ merchant_id: owner.merchantId }), ownRecord),
  'POST /api/user/create-merchant-terminal': sample(
    (owner) => body(terminal(owner, { terminal_id: `POS-${fresh()}` })),
    ownRecord,
  ),
  'POST /api/user/update-merchant-terminal': sample(
    async (owner) =>
      body(terminal(owner, { terminal_id: `POS-${fresh()}`, merchant_terminal_id: await newTerminal(owner) })),
    ownRecord,
  ),
  'POST /api/merchant-terminal/delete': sample(
    async (owner) => body({ merchant_terminal_id: await newTerminal(owner) }),
    ownRecord,
  ),
};
