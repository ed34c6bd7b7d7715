import {
  changePasswordMessages,
  changePasswordRequest,
  changePasswordResponse,
  errorCodes,
  getUserPrefsRequest,
  getUserPrefsResponse,
  profileMessages,
  updateUserRequest,
  updateUserResponse,
  userConfigUpdateRequest,
  userConfigUpdateResponse,
} from '@peeks/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { refuse } from '../../plugins/error-envelope.ts';
import { signedIn } from '../../plugins/sessions.ts';
import { findUser, hashPassword, sessionUserOf, verifyPassword } from '../accounts/index.ts';
import { preferencesOf, sectionOf } from './preferences.ts';
import { changePassword, setPreference, storedPreferences, updateUserDetails } from './queries.ts';

/** Who may edit the profile (spec §6). */
const UPDATE_USER = 'UPDATE_USER';

/**
 * The signed-in user's own profile: password, details, notification
 * preferences. Each call names the user; another user's id is 404, as if it
 * did not exist.
 */
export const profileRoutes: FastifyPluginAsyncZod = (app) => {
  const ownUser = async (sessionUserId: number, id: number) => {
    const user = id === sessionUserId ? await findUser(app.db, id) : undefined;
    if (!user) throw refuse(404, errorCodes.userNotFound);
    return user;
  };

  app.post(
    '/api/user/change-password',
    {
      schema: { body: changePasswordRequest, response: { 200: changePasswordResponse } },
      config: {
        rateLimit: app.rateLimits.passwordChange,
        operation: { operationId: 'changePassword', summary: 'Change the password', tag: 'profile', errors: [422] },
      },
    },
    async (request) => {
      const session = signedIn(request);
      const user = await ownUser(session.userId, request.body.id);
      if (!(await verifyPassword(request.body.old_password, user.password_hash)))
        throw refuse(422, errorCodes.currentPasswordWrong, { field: 'old_password' });
      await changePassword(
        app.db,
        app.sessions,
        user.user_id,
        await hashPassword(request.body.new_password),
        session.key,
        app.clock(),
      );
      return { response: 'success' as const, message: changePasswordMessages.updated };
    },
  );

  app.post(
    '/api/user/update-user',
    {
      config: {
        operation: {
          operationId: 'updateUser',
          summary: "Update the signed-in user's profile",
          tag: 'profile',
          errors: [409],
        },
      },
      schema: { body: updateUserRequest, response: { 200: updateUserResponse } },
    },
    async (request) => {
      const session = signedIn(request);
      const user = await ownUser(session.userId, request.body.user_id);
      if (!user.perms.includes(UPDATE_USER)) throw refuse(403, errorCodes.notAuthorized);
      await updateUserDetails(app.db, user.user_id, request.body, app.clock());
      return {
        response: 'success' as const,
        user: await sessionUserOf(app.db, session),
        message: profileMessages.updated,
      };
    },
  );

  app.post(
    '/api/user/get-user-prefs',
    {
      config: {
        operation: { operationId: 'getUserPreferences', summary: "Get the user's preferences", tag: 'profile' },
      },
      schema: { body: getUserPrefsRequest, response: { 200: getUserPrefsResponse } },
    },
    async (request) => {
      const session = signedIn(request);
      const user = await ownUser(session.userId, request.body.user_id);
      return {
        response: 'success' as const,
        preferences: preferencesOf(await storedPreferences(app.db, user.user_id), request.body.section),
      };
    },
  );

  app.post(
    '/api/user/user-config-update',
    {
      config: {
        operation: { operationId: 'updateUserPreferences', summary: "Update the user's preferences", tag: 'profile' },
      },
      schema: { body: userConfigUpdateRequest, response: { 200: userConfigUpdateResponse } },
    },
    async (request) => {
      const session = signedIn(request);
      const user = await ownUser(session.userId, request.body.user_id);
      const now = app.clock();
      for (const [key, enabled] of Object.entries(request.body.config))
        await setPreference(app.db, user.user_id, { section: sectionOf(key), key, enabled }, now);
      return {
        response: 'success' as const,
        preferences: preferencesOf(await storedPreferences(app.db, user.user_id), ['all']),
      };
    },
  );

  return Promise.resolve();
};
