import { processorHeaders } from '../../testing/app.ts';
import { approvedChargeKey, cardEntry, tokenFor } from '../../testing/payment-methods.ts';
import { body, fresh, type RouteRequest, type RouteSamples, sample } from '../../testing/route-samples.ts';

const processorCall = { csrfExempt: true };
const asPlatform = (value: unknown): RouteRequest => ({ body: value, headers: processorHeaders });

/**
 * A request each route of this feature serves, keyed as fastify knows the
 * route, for the route-wide tests (authorization matrix, fuzz, malformed input).
 */
export const routeSamples: RouteSamples = {
  'POST /api/sandbox/partial-refunds': sample(
    async (_owner, subject) =>
      asPlatform({ idempotency_key: await approvedChargeKey(subject), refund_key: `refund-${fresh()}`, amount: 100 }),
    processorCall,
  ),
  'POST /api/sandbox/refunds': sample(
    async (_owner, subject) => asPlatform({ idempotency_key: await approvedChargeKey(subject) }),
    processorCall,
  ),
  'GET /api/sandbox/tokenizer': sample(() => ({})),
  'POST /api/sandbox/tokenize': sample(() => body(cardEntry()), processorCall),
  'POST /api/sandbox/card-lookup': sample(
    async (_owner, subject) => asPlatform({ token: await tokenFor(subject) }),
    processorCall,
  ),
  'POST /api/sandbox/charges': sample(
    async (_owner, subject) =>
      asPlatform({ token: await tokenFor(subject), amount: 500, currency: 'USD', idempotency_key: `key-${fresh()}` }),
    processorCall,
  ),
};
