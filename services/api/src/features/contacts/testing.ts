import { contactResponse } from '@peeks/contracts';
import { contactForm } from '../../testing/contacts.ts';
import type { SignedIn } from '../../testing/merchants.ts';
import { body, made, ownRecord, query, type RouteSamples, sample } from '../../testing/route-samples.ts';

const newContact = (owner: SignedIn) =>
  made(owner, '/api/user/contact-create', contactForm(), (answer) => contactResponse.parse(answer).contact.contact_id);

/**
 * A request each route of this feature serves, keyed as fastify knows the
 * route, for the route-wide tests (authorization matrix, fuzz, malformed input).
 */
export const routeSamples: RouteSamples = {
  'GET /api/user/contact-list': sample(() => ({})),
  'GET /api/user/contact-lookup': sample(async (owner) => query({ id: await newContact(owner) }), ownRecord),
  'POST /api/user/contact-create': sample(() => body(contactForm()), {
    optional: ['address2', 'phone_region'],
  }),
  'POST /api/user/recipient-create': sample(
    () => body(contactForm({ bank_name: 'Banque Laurentienne', institution_no: '039', account_no: '1234567' })),
    { optional: ['address2', 'phone_region'] },
  ),
  'POST /api/user/contact-update': sample(
    async (owner) => body({ ...contactForm({ city: 'Gatineau' }), contact_id: await newContact(owner) }),
    {
      ...ownRecord,
      optional: ['address2', 'phone_region'],
    },
  ),
  'POST /api/user/contact-delete': sample(async (owner) => body({ contact_id: await newContact(owner) }), ownRecord),
};
