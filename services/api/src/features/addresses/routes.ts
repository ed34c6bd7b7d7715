import {
  addAddressRequest,
  addressDeletedResponse,
  addressListQuery,
  addressListResponse,
  addressMessages,
  addressResponse,
  deleteAddressRequest,
  errorCodes,
  updateAddressRequest,
} from '@peeks/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { refuse } from '../../plugins/error-envelope.ts';
import { requireSignIn, signedIn } from '../../plugins/sessions.ts';
import { addAddress, deleteAddress, listAddresses, updateAddress } from './queries.ts';

/** The Profile page's Address tab: the signed-in user's own addresses. Another user's id is 404. */
export const addressRoutes: FastifyPluginAsyncZod = (app) => {
  app.addHook('onRequest', requireSignIn);

  const notFound = () => refuse(404, errorCodes.addressNotFound, { field: 'address_id' });

  app.get(
    '/api/user/address-list',
    {
      config: { operation: { operationId: 'listAddresses', summary: "List the user's addresses", tag: 'addresses' } },
      schema: { querystring: addressListQuery, response: { 200: addressListResponse } },
    },
    async (request) => {
      const { userId } = signedIn(request);
      return { response: 'success' as const, ...(await listAddresses(app.db, userId, request.query)) };
    },
  );

  app.post(
    '/api/user/add-address',
    {
      config: { operation: { operationId: 'addAddress', summary: 'Add an address', tag: 'addresses' } },
      schema: { body: addAddressRequest, response: { 200: addressResponse } },
    },
    async (request) => {
      const { userId } = signedIn(request);
      const address = await addAddress(app.db, userId, request.body, app.clock());
      return { response: 'success' as const, address, message: addressMessages.added };
    },
  );

  app.post(
    '/api/user/update-address',
    {
      config: {
        operation: { operationId: 'updateAddress', summary: 'Update an address', tag: 'addresses', errors: [404] },
      },
      schema: { body: updateAddressRequest, response: { 200: addressResponse } },
    },
    async (request) => {
      const { userId } = signedIn(request);
      const address = await updateAddress(app.db, userId, request.body, app.clock());
      if (!address) throw notFound();
      return { response: 'success' as const, address, message: addressMessages.updated };
    },
  );

  app.post(
    '/api/user/delete-address',
    {
      config: {
        operation: { operationId: 'deleteAddress', summary: 'Delete an address', tag: 'addresses', errors: [404] },
      },
      schema: { body: deleteAddressRequest, response: { 200: addressDeletedResponse } },
    },
    async (request) => {
      const { userId } = signedIn(request);
      if (!(await deleteAddress(app.db, userId, request.body.address_id, app.clock()))) throw notFound();
      return { response: 'success' as const, message: addressMessages.deleted };
    },
  );

  return Promise.resolve();
};
