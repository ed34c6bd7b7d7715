import { chosenAnswers, withPin } from '../../testing/credentials.ts';
import { body, password, type RouteSamples, sample } from '../../testing/route-samples.ts';

/**
 * A request each route of this feature serves, keyed as fastify knows the
 * route, for the route-wide tests (authorization matrix, fuzz, malformed input).
 */
export const routeSamples: RouteSamples = {
  'GET /api/user/security-settings': sample(() => ({})),
  'GET /api/user/security-questions': sample(() => ({})),
  'POST /api/user/set-pin': sample(() => body({ password, pin: '2580', pin_repeat: '2580' })),
  'POST /api/user/change-pin': sample(async (owner) =>
    body({ old_pin: await withPin(owner), new_pin: '1470', new_pin_repeat: '1470' }),
  ),
  'POST /api/user/verify-pin': sample(async (owner) => body({ pin: await withPin(owner) })),
  'POST /api/user/set-security-questions': sample(() => body({ password, questions: chosenAnswers() })),
};
