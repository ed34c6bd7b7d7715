import {
  categoriesResponse,
  createTerminalRequest,
  deleteTerminalRequest,
  emptySuccess,
  errorCodes,
  merchantUpdatedMessage,
  subCategoriesResponse,
  subCategoryQuery,
  terminalListQuery,
  terminalListResponse,
  terminalResponse,
  updateMerchantRequest,
  updateMerchantResponse,
  updateTerminalRequest,
} from '@peeks/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiError, refuse } from '../../plugins/error-envelope.ts';
import { findMembership, toMerchantInfo } from '../accounts/index.ts';
import { actingMerchant, onlyOwn } from './acting-merchant.ts';
import { lockedFieldChanges } from './locked-fields.ts';
import {
  createTerminal,
  deleteTerminal,
  listCategories,
  listSubCategories,
  listTerminals,
  updateMerchant,
  updateTerminal,
} from './queries.ts';

/**
 * The Merchant and Merchant Terminal tabs: merchant users only, always on the
 * merchant the session acts for. Categories are public: business sign-up
 * needs them before anyone is signed in.
 */
export const merchantRoutes: FastifyPluginAsyncZod = (app) => {
  app.post(
    '/api/merchant/update-merchant',
    {
      config: {
        operation: {
          operationId: 'updateMerchant',
          summary: "Update the acting merchant's profile",
          tag: 'merchants',
          errors: [404],
          caller: 'merchant',
        },
      },
      schema: { body: updateMerchantRequest, response: { 200: updateMerchantResponse } },
    },
    async (request) => {
      const acting = await actingMerchant(request, 'UPDATE_MERCHANT');
      onlyOwn(request.body.merchant_id, acting.merchantId, errorCodes.merchantNotFound);
      const before = await findMembership(app.db, acting.userId, acting.merchantId);
      if (!before) throw refuse(404, errorCodes.merchantNotFound);
      const locked = lockedFieldChanges(request.body, before);
      if (locked.length > 0) throw new ApiError(403, locked[0]?.message ?? '', locked);
      await updateMerchant(app.db, acting.merchantId, request.body, app.clock());
      const after = await findMembership(app.db, acting.userId, acting.merchantId);
      if (!after) throw refuse(404, errorCodes.merchantNotFound);
      return {
        response: 'success' as const,
        message: merchantUpdatedMessage,
        merchantInfo: toMerchantInfo(after, after.perms),
      };
    },
  );

  app.get(
    '/api/merchant-terminal/list',
    {
      config: {
        operation: {
          operationId: 'listTerminals',
          summary: "List the acting merchant's terminals",
          tag: 'merchants',
          errors: [403],
          caller: 'merchant',
        },
      },
      schema: { querystring: terminalListQuery, response: { 200: terminalListResponse } },
    },
    async (request) => {
      const acting = await actingMerchant(request, 'MANAGE_TERMINALS');
      onlyOwn(request.query.merchant_id, acting.merchantId, errorCodes.merchantNotFound);
      return { response: 'success' as const, merchantTerminalList: await listTerminals(app.db, acting.merchantId) };
    },
  );

  app.post(
    '/api/user/create-merchant-terminal',
    {
      config: {
        operation: {
          operationId: 'createTerminal',
          summary: 'Add a terminal',
          tag: 'merchants',
          errors: [409],
          caller: 'merchant',
        },
      },
      schema: { body: createTerminalRequest, response: { 200: terminalResponse } },
    },
    async (request) => {
      const acting = await actingMerchant(request, 'MANAGE_TERMINALS');
      onlyOwn(request.body.merchant_id, acting.merchantId, errorCodes.merchantNotFound);
      return {
        response: 'success' as const,
        merchantTerminal: await createTerminal(app.db, acting.merchantId, request.body, app.clock()),
      };
    },
  );

  app.post(
    '/api/user/update-merchant-terminal',
    {
      config: {
        operation: {
          operationId: 'updateTerminal',
          summary: 'Update a terminal',
          tag: 'merchants',
          errors: [404, 409],
          caller: 'merchant',
        },
      },
      schema: { body: updateTerminalRequest, response: { 200: terminalResponse } },
    },
    async (request) => {
      const acting = await actingMerchant(request, 'MANAGE_TERMINALS');
      onlyOwn(request.body.merchant_id, acting.merchantId, errorCodes.merchantNotFound);
      const terminal = await updateTerminal(app.db, acting.merchantId, request.body.merchant_terminal_id, request.body);
      if (!terminal) throw refuse(404, errorCodes.terminalNotFound);
      return { response: 'success' as const, merchantTerminal: terminal };
    },
  );

  app.post(
    '/api/merchant-terminal/delete',
    {
      config: {
        operation: {
          operationId: 'deleteTerminal',
          summary: 'Delete a terminal',
          tag: 'merchants',
          errors: [404],
          caller: 'merchant',
        },
      },
      schema: { body: deleteTerminalRequest, response: { 200: emptySuccess } },
    },
    async (request) => {
      const acting = await actingMerchant(request, 'MANAGE_TERMINALS');
      if (!(await deleteTerminal(app.db, acting.merchantId, request.body.merchant_terminal_id)))
        throw refuse(404, errorCodes.terminalNotFound);
      return { response: 'success' as const };
    },
  );

  app.get(
    '/api/category',
    {
      config: {
        access: 'public',
        operation: { operationId: 'listCategories', summary: 'List merchant categories', tag: 'merchants' },
      },
      schema: { response: { 200: categoriesResponse } },
    },
    async () => ({
      response: 'success' as const,
      categories: await listCategories(app.db),
    }),
  );

  app.get(
    '/api/category/subcategory',
    {
      config: {
        access: 'public',
        operation: {
          operationId: 'listSubcategories',
          summary: "List a category's subcategories",
          tag: 'merchants',
          errors: [404],
        },
      },
      schema: { querystring: subCategoryQuery, response: { 200: subCategoriesResponse } },
    },
    async (request) => {
      const subCategories = await listSubCategories(app.db, request.query.categoryId);
      if (!subCategories) throw refuse(404, errorCodes.categoryNotFound);
      return { response: 'success' as const, subCategories };
    },
  );

  return Promise.resolve();
};
