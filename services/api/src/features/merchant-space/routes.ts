import {
  merchantDashboardResponse,
  merchantPageQuery,
  merchantTransactionsResponse,
  reportQuery,
  reportResponse,
  returnSaleRequest,
  settlementQuery,
  settlementResponse,
  settlementsResponse,
  merchantTransactionResponse,
  errorCodes,
} from '@peeks/contracts';
import { merchantOwnerId } from '@peeks/ledger';
import { CronExpressionParser } from 'cron-parser';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { refuse } from '../../plugins/error-envelope.ts';
import { requireSignIn } from '../../plugins/sessions.ts';
import { actingMerchant } from '../merchants/index.ts';
import {
  dailySales,
  figuresBetween,
  findSale,
  merchantView,
  recentPayments,
  reportOf,
  returnsOf,
  settleableNow,
  settlementOf,
  settlementsOf,
  transfersOf,
} from './queries.ts';
import { reportCsv } from './report-csv.ts';
import { returnSale } from './returns.ts';

export interface MerchantSpaceOptions {
  /** SETTLEMENT_CRON, in UTC: when the next settlement runs. */
  settlementCron: string;
}

const DAY = 86_400_000;
const DAILY_SALES_DAYS = 30;
const RECENT_PAYMENTS = 10;
const LAST_SETTLEMENTS = 5;

/**
 * The merchant's own space (issue 27): Return on a sale, and the reads behind
 * the Merchant Dashboard, Transfers, Returns, Settlements and Reports. Each
 * acts for the session's current merchant (Switch Merchant changes it), and
 * only for a member holding the permission: RETURN_SALES to return,
 * VIEW_SALES to read. A record of another merchant's is 404.
 */
export const merchantSpaceRoutes: FastifyPluginAsyncZod<MerchantSpaceOptions> = (app, options) => {
  app.addHook('onRequest', requireSignIn);
  const viewer = async (request: Parameters<typeof actingMerchant>[0]) =>
    merchantOwnerId((await actingMerchant(request, 'VIEW_SALES')).merchantId);

  app.post(
    '/api/merchant/return-sale',
    {
      config: {
        operation: {
          operationId: 'returnSale',
          summary: 'Give back all or part of a sale',
          tag: 'merchant-space',
          errors: [404, 409, 422, 503],
          idempotent: true,
          caller: 'merchant',
          example: { tx_id: 'tx_4f1c0e9a7b3d2c1e0f9a8b7c6d5e4f3a', amount: 500, reason: 'Damaged item' },
        },
      },
      schema: { body: returnSaleRequest, response: { 200: merchantTransactionResponse } },
    },
    async (request) => {
      const acting = await actingMerchant(request, 'RETURN_SALES');
      const record = await returnSale(request, acting, request.body);
      const merchant = merchantOwnerId(acting.merchantId);
      const row = await app.db
        .selectFrom('ledger_transactions')
        .selectAll()
        .where('tx_id', '=', record.txId)
        .executeTakeFirst();
      if (!row) throw new Error(`return ${record.txId} has no row`);
      return { response: 'success' as const, transaction: await merchantView(app.db, row, merchant) };
    },
  );

  app.get(
    '/api/merchant/dashboard',
    {
      config: {
        operation: {
          operationId: 'getMerchantDashboard',
          summary: "Get the acting merchant's dashboard",
          tag: 'merchant-space',
          errors: [403],
          caller: 'merchant',
        },
      },
      schema: { response: { 200: merchantDashboardResponse } },
    },
    async (request) => {
      const merchant = await viewer(request);
      const now = app.clock();
      const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
      const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      const tomorrow = new Date(today.getTime() + DAY);
      const [todays, months, daily, amounts, settlements, recent] = await Promise.all([
        figuresBetween(app.reader(request), merchant, today, tomorrow),
        figuresBetween(app.reader(request), merchant, month, tomorrow),
        dailySales(app.reader(request), merchant, now, DAILY_SALES_DAYS),
        settleableNow(app.reader(request), merchant, now),
        settlementsOf(app.reader(request), merchant, { offset: 0, limit: LAST_SETTLEMENTS }),
        recentPayments(app.reader(request), merchant, RECENT_PAYMENTS),
      ]);
      const next = CronExpressionParser.parse(options.settlementCron, { currentDate: now, tz: 'UTC' }).next();
      return {
        response: 'success' as const,
        today: todays,
        month: months,
        daily,
        next_settlement: { at: next.toDate().toISOString(), amounts },
        settlements: settlements.settlements,
        recent_payments: recent,
      };
    },
  );

  app.get(
    '/api/merchant/transfers',
    {
      config: {
        operation: {
          operationId: 'listMerchantTransfers',
          summary: "List the merchant's sales",
          tag: 'merchant-space',
          errors: [403],
          caller: 'merchant',
        },
      },
      schema: { querystring: merchantPageQuery, response: { 200: merchantTransactionsResponse } },
    },
    async (request) => ({
      response: 'success' as const,
      ...(await transfersOf(app.reader(request), await viewer(request), request.query)),
    }),
  );

  app.get(
    '/api/merchant/returns',
    {
      config: {
        operation: {
          operationId: 'listMerchantReturns',
          summary: "List the merchant's returns",
          tag: 'merchant-space',
          errors: [403],
          caller: 'merchant',
        },
      },
      schema: { querystring: merchantPageQuery, response: { 200: merchantTransactionsResponse } },
    },
    async (request) => ({
      response: 'success' as const,
      ...(await returnsOf(app.reader(request), await viewer(request), request.query)),
    }),
  );

  app.get(
    '/api/merchant/sale',
    {
      config: {
        operation: {
          operationId: 'getMerchantSale',
          summary: 'Get one sale and its returns',
          tag: 'merchant-space',
          errors: [403, 404],
          caller: 'merchant',
        },
      },
      schema: {
        querystring: z.object({ tx_id: returnSaleRequest.shape.tx_id }),
        response: { 200: merchantTransactionResponse },
      },
    },
    async (request) => {
      const merchant = await viewer(request);
      const row = await findSale(app.reader(request), merchant, request.query.tx_id);
      if (!row) throw refuse(404, errorCodes.transactionNotFound, { field: 'tx_id' });
      return { response: 'success' as const, transaction: await merchantView(app.reader(request), row, merchant) };
    },
  );

  app.get(
    '/api/merchant/settlements',
    {
      config: {
        operation: {
          operationId: 'listSettlements',
          summary: "List the merchant's settlements",
          tag: 'merchant-space',
          errors: [403],
          caller: 'merchant',
        },
      },
      schema: { querystring: merchantPageQuery, response: { 200: settlementsResponse } },
    },
    async (request) => ({
      response: 'success' as const,
      ...(await settlementsOf(app.reader(request), await viewer(request), request.query)),
    }),
  );

  app.get(
    '/api/merchant/settlement',
    {
      config: {
        operation: {
          operationId: 'getSettlement',
          summary: 'Get one settlement',
          tag: 'merchant-space',
          errors: [403, 404],
          caller: 'merchant',
        },
      },
      schema: { querystring: settlementQuery, response: { 200: settlementResponse } },
    },
    async (request) => {
      const found = await settlementOf(app.reader(request), await viewer(request), request.query.batch_id);
      if (!found) throw refuse(404, errorCodes.notFound, { field: 'batch_id' });
      return { response: 'success' as const, ...found };
    },
  );

  app.get(
    '/api/merchant/report',
    {
      config: {
        operation: {
          operationId: 'getMerchantReport',
          summary: 'Get the sales report for a period',
          tag: 'merchant-space',
          errors: [403],
          caller: 'merchant',
        },
      },
      schema: { querystring: reportQuery, response: { 200: reportResponse } },
    },
    async (request) => ({
      response: 'success' as const,
      ...(await reportOf(app.reader(request), await viewer(request), request.query.from, request.query.to)),
    }),
  );

  app.get(
    '/api/merchant/report.csv',
    {
      config: {
        operation: {
          operationId: 'getMerchantReportCsv',
          summary: 'Download the sales report as CSV',
          tag: 'merchant-space',
          errors: [403],
          caller: 'merchant',
          produces: 'text/csv',
        },
      },
      schema: { querystring: reportQuery },
    },
    async (request, reply) => {
      const { from, to } = request.query;
      const report = await reportOf(app.reader(request), await viewer(request), from, to);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="peeks-report-${from}-to-${to}.csv"`)
        .header('cache-control', 'no-store')
        .send(reportCsv(report));
    },
  );

  return Promise.resolve();
};
