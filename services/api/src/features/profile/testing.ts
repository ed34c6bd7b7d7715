import { body, newPassword, ownRecord, password, type RouteSamples, sample } from '../../testing/route-samples.ts';

/**
 * A request each route of this feature serves, keyed as fastify knows the
 * route, for the route-wide tests (authorization matrix, fuzz, malformed input).
 */
export const routeSamples: RouteSamples = {
  'POST /api/user/change-password': sample(
    (owner) =>
      body({
        id: owner.user.user_id,
        old_password: password,
        new_password: newPassword,
        new_password_repeat: newPassword,
      }),
    ownRecord,
  ),
  'POST /api/user/update-user': sample(
    (owner) =>
      body({
        user_id: owner.user.user_id,
        name_first: 'Anne',
        name_last: 'Tremblay',
        email: owner.user.email,
        phone: '6135550101',
        phone_region: '+1',
        country: 'CA',
      }),
    { ...ownRecord, optional: ['phone_region'] },
  ),
  'POST /api/user/get-user-prefs': sample((owner) => body({ user_id: owner.user.user_id, section: ['all'] }), {
    ...ownRecord,
    optional: ['section'],
  }),
  'POST /api/user/user-config-update': sample(
    (owner) => body({ user_id: owner.user.user_id, config: { newsletter: true } }),
    ownRecord,
  ),
};
