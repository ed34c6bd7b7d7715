import {
  addRecipientRequest,
  contactDeletedResponse,
  contactListResponse,
  contactMessages,
  contactResponse,
  createContactRequest,
  deleteContactRequest,
  errorCodes,
  lookupQuery,
  updateContactRequest,
} from '@peeks/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { refuse } from '../../plugins/error-envelope.ts';
import { requireSignIn, signedIn } from '../../plugins/sessions.ts';
import { createContact, deleteContact, findContact, listContacts, updateContact } from './queries.ts';

/** The Contacts page: the signed-in user's own address book. Another user's contact is 404. */
export const contactRoutes: FastifyPluginAsyncZod = (app) => {
  app.addHook('onRequest', requireSignIn);

  const notFound = () => refuse(404, errorCodes.contactNotFound, { field: 'contact_id' });

  app.get(
    '/api/user/contact-list',
    {
      config: { operation: { operationId: 'listContacts', summary: "List the user's contacts", tag: 'contacts' } },
      schema: { response: { 200: contactListResponse } },
    },
    async (request) => {
      const { userId } = signedIn(request);
      const contacts = await listContacts(app.db, userId);
      return { response: 'success' as const, contacts, total: contacts.length };
    },
  );

  app.get(
    '/api/user/contact-lookup',
    {
      config: {
        operation: { operationId: 'lookupContact', summary: 'Get one contact', tag: 'contacts', errors: [404] },
      },
      schema: { querystring: lookupQuery, response: { 200: contactResponse } },
    },
    async (request) => {
      const { userId } = signedIn(request);
      const contact = await findContact(app.db, userId, request.query.id);
      if (!contact) throw refuse(404, errorCodes.contactNotFound, { field: 'id' });
      return { response: 'success' as const, contact };
    },
  );

  app.post(
    '/api/user/contact-create',
    {
      config: { operation: { operationId: 'createContact', summary: 'Add a contact', tag: 'contacts', errors: [409] } },
      schema: { body: createContactRequest, response: { 200: contactResponse } },
    },
    async (request) => {
      const { userId } = signedIn(request);
      return { response: 'success' as const, contact: await createContact(app.db, userId, request.body, app.clock()) };
    },
  );

  app.post(
    '/api/user/recipient-create',
    {
      config: {
        operation: {
          operationId: 'createRecipient',
          summary: 'Add a recipient with their banking details (Add A Recipient)',
          tag: 'contacts',
          errors: [409],
        },
      },
      schema: { body: addRecipientRequest, response: { 200: contactResponse } },
    },
    async (request) => {
      const { userId } = signedIn(request);
      return { response: 'success' as const, contact: await createContact(app.db, userId, request.body, app.clock()) };
    },
  );

  app.post(
    '/api/user/contact-update',
    {
      config: {
        operation: { operationId: 'updateContact', summary: 'Update a contact', tag: 'contacts', errors: [404, 409] },
      },
      schema: { body: updateContactRequest, response: { 200: contactResponse } },
    },
    async (request) => {
      const { userId } = signedIn(request);
      const contact = await updateContact(app.db, userId, request.body, app.clock());
      if (!contact) throw notFound();
      return { response: 'success' as const, contact };
    },
  );

  app.post(
    '/api/user/contact-delete',
    {
      config: {
        operation: { operationId: 'deleteContact', summary: 'Delete a contact', tag: 'contacts', errors: [404] },
      },
      schema: { body: deleteContactRequest, response: { 200: contactDeletedResponse } },
    },
    async (request) => {
      const { userId } = signedIn(request);
      if (!(await deleteContact(app.db, userId, request.body.contact_id))) throw notFound();
      return { response: 'success' as const, message: contactMessages.deleted };
    },
  );

  return Promise.resolve();
};
