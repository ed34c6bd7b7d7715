import { uploadAvatarResponse } from '@peeks/contracts';
import { expect } from 'vitest';
import type { SignedIn } from '../../testing/merchants.ts';
import { jpegWithExif, png } from '../../testing/uploads.ts';
import { ownRecord, type RouteRequest, type RouteSamples, sample } from '../../testing/route-samples.ts';
import { send } from '../../testing/requests.ts';

const avatarForm = async (owner: SignedIn): Promise<RouteRequest> => ({
  form: {
    fields: { user_id: String(owner.user.user_id) },
    files: { file: { name: 'me.jpg', bytes: await jpegWithExif(64, 64), type: 'image/jpeg' } },
  },
});
const documentForm = async (owner: SignedIn): Promise<RouteRequest> => ({
  form: {
    fields: {
      user_id: String(owner.user.user_id),
      document_type: 'passport',
      document_number: 'AB123456',
      issuing_country: 'CA',
      issue_date: '15-06-2020',
      expiry_date: '15-06-2030',
    },
    files: { file: { name: 'passport.png', bytes: await png(120, 80), type: 'image/png' } },
  },
});
/** The URL of an avatar the owner has just uploaded. */
async function newAvatar(owner: SignedIn): Promise<string> {
  const { form } = await avatarForm(owner);
  if (!form) throw new Error('no avatar form');
  const response = await send(owner.browser, 'POST', '/api/user/user-upload-avatar', { form });
  expect(response.statusCode, `avatar for a fixture: ${response.body.slice(0, 200)}`).toBe(200);
  return uploadAvatarResponse.parse(response.json()).avatar;
}

/**
 * A request each route of this feature serves, keyed as fastify knows the
 * route, for the route-wide tests (authorization matrix, fuzz, malformed input).
 */
export const routeSamples: RouteSamples = {
  'POST /api/user/user-upload-avatar': sample(avatarForm, ownRecord),
  // Contacts and recipients show each other's avatars, so any signed-in user may fetch one.
  'GET /api/user/avatar/:userId/:sha256': sample(async (owner) => ({ path: await newAvatar(owner) })),
  'POST /api/user/upload-document': sample(documentForm, ownRecord),
  'GET /api/user/document-list': sample(() => ({})),
};
