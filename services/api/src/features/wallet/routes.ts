import {
  auditListResponse,
  auditQuery,
  balanceResponse,
  coinListQuery,
  coinListResponse,
  detailsRequest,
  errorCodes,
  forexRequest,
  forexResponse,
  ledgerDetailsResponse,
  ledgerListResponse,
  ledgerListRequest,
  transactionDetailsResponse,
  transactionListRequest,
  transactionListResponse,
} from '@peeks/contracts';
import { coinsOf } from '@peeks/ledger-store';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { refuse } from '../../plugins/error-envelope.ts';
import { presentTransaction, presentTransactions, sessionWalletOwner } from '../payments/index.ts';
import { cartPaidBy } from '../checkout/index.ts';
import { requireSignIn } from '../../plugins/sessions.ts';
import { rateInForce } from '../pricing/index.ts';
import { forexOf } from './money-views.ts';
import { auditOf, balanceNow, findLedgerEntry, findTransaction, ledgerPage, transactionPage } from './queries.ts';

/**
 * Reading money: the balance, the ledger and transaction lists and their
 * details, the coin breakdown, a transaction's coin audit, and the forex
 * rate. Everything is the caller's own (`sessionWalletOwner`); another
 * owner's record answers 404, as one that does not exist.
 */
export const walletRoutes: FastifyPluginAsyncZod = (app) => {
  app.addHook('onRequest', requireSignIn);
  const transactionNotFound = (field: string) => refuse(404, errorCodes.transactionNotFound, { field });

  app.get(
    '/api/account/balance',
    {
      config: {
        operation: {
          operationId: 'getBalance',
          summary: "Get the acting owner's balances per currency",
          tag: 'wallet',
        },
      },
      schema: { response: { 200: balanceResponse } },
    },
    async (request) => {
      return {
        response: 'success' as const,
        balance: await balanceNow(app.db, sessionWalletOwner(request), app.clock()),
      };
    },
  );

  app.post(
    '/api/account/ledger',
    {
      config: { operation: { operationId: 'listLedgerEntries', summary: 'List ledger entries', tag: 'wallet' } },
      schema: { body: ledgerListRequest, response: { 200: ledgerListResponse } },
    },
    async (request) => {
      return {
        response: 'success' as const,
        ...(await ledgerPage(app.reader(request), sessionWalletOwner(request), request.body)),
      };
    },
  );

  app.post(
    '/api/account/ledger-details',
    {
      config: {
        operation: { operationId: 'getLedgerEntry', summary: 'Get one ledger entry', tag: 'wallet', errors: [404] },
      },
      schema: { body: detailsRequest, response: { 200: ledgerDetailsResponse } },
    },
    async (request) => {
      const ledger = await findLedgerEntry(app.reader(request), sessionWalletOwner(request), request.body.id);
      if (!ledger) throw refuse(404, errorCodes.ledgerEntryNotFound, { field: 'id' });
      return { response: 'success' as const, ledger };
    },
  );

  app.post(
    '/api/account/transactions',
    {
      config: { operation: { operationId: 'listTransactions', summary: 'List transactions', tag: 'wallet' } },
      schema: { body: transactionListRequest, response: { 200: transactionListResponse } },
    },
    async (request) => {
      const viewer = sessionWalletOwner(request);
      const { records, total } = await transactionPage(app.reader(request), viewer, request.body);
      return {
        response: 'success' as const,
        transactions: await presentTransactions(app.reader(request), viewer, records),
        total,
      };
    },
  );

  app.post(
    '/api/account/transaction-details',
    {
      config: {
        operation: { operationId: 'getTransaction', summary: 'Get one transaction', tag: 'wallet', errors: [404] },
      },
      schema: { body: detailsRequest, response: { 200: transactionDetailsResponse } },
    },
    async (request) => {
      const viewer = sessionWalletOwner(request);
      const record = await findTransaction(app.reader(request), viewer, request.body.id);
      if (!record) throw transactionNotFound('id');
      return {
        response: 'success' as const,
        transaction: {
          ...(await presentTransaction(app.reader(request), viewer, record)),
          cart: await cartPaidBy(app.reader(request), record.txId),
        },
      };
    },
  );

  app.post(
    '/api/account/forex-lookup',
    {
      config: {
        operation: { operationId: 'lookupExchangeRate', summary: 'Get the rate between two currencies', tag: 'wallet' },
      },
      schema: { body: forexRequest, response: { 200: forexResponse } },
    },
    async (request) => {
      const { currency } = request.body;
      const { rateMicros } = await rateInForce(app.db, app.exchangeRates, currency, app.clock());
      return { response: 'success' as const, forex: forexOf(currency, rateMicros) };
    },
  );

  app.get(
    '/api/wallet/list-coins',
    {
      config: { operation: { operationId: 'listCoins', summary: "List the wallet's coin serials", tag: 'wallet' } },
      schema: { querystring: coinListQuery, response: { 200: coinListResponse } },
    },
    async (request) => {
      const { coins, total } = await coinsOf(app.db, sessionWalletOwner(request), request.query);
      return {
        response: 'success' as const,
        coins: coins.map(({ serial, value, currency }) => ({ serial, value, currency })),
        total,
      };
    },
  );

  app.get(
    '/api/wallet/list-audit',
    {
      config: {
        operation: {
          operationId: 'listCoinAudit',
          summary: "List the audit trail of the wallet's coins",
          tag: 'wallet',
        },
      },
      schema: { querystring: auditQuery, response: { 200: auditListResponse } },
    },
    async (request) => {
      const ledgers = await auditOf(app.reader(request), sessionWalletOwner(request), request.query.reference_no);
      if (!ledgers) throw transactionNotFound('reference_no');
      return { response: 'success' as const, ledgers };
    },
  );

  return Promise.resolve();
};
