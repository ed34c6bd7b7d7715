import { body, newPassword, type RouteSamples, sample } from '../../testing/route-samples.ts';

/**
 * A request each route of this feature serves, keyed as fastify knows the
 * route, for the route-wide tests (authorization matrix, fuzz, malformed input).
 */
export const routeSamples: RouteSamples = {
  'POST /api/user/get-recovery-email': sample((owner) => body({ username: owner.user.username })),
  'POST /api/user/send-recovery-code': sample((owner) => body({ username: owner.user.username })),
  'POST /api/user/check-recovery-code': sample((owner) =>
    body({ username: owner.user.username, recoveryCode: '123456' }),
  ),
  'POST /api/user/reset-password': sample(
    (owner) =>
      body({
        username: owner.user.username,
        recoveryCode: '123456',
        userPassword: newPassword,
        confirmPassword: newPassword,
      }),
    { optional: ['security_answers'] },
  ),
};
