import { errorCodes, text, tokenizeRequest, tokenizeResponse } from '@peeks/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { refuse } from '../../plugins/error-envelope.ts';
import { chargeCard, findCard, refundCharge, refundPart, storeCard } from './queries.ts';
import { tokenizerPage } from './tokenizer-page.ts';

const invalid = { error: 'Invalid argument(s)' };
const tokenField = text('token', { max: 64 });
const cardLookupRequest = z.object({ token: tokenField }, invalid);
const chargeRequest = z.object(
  {
    token: tokenField,
    amount: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    currency: z.string().regex(/^[A-Z]{3}$/),
    idempotency_key: text('idempotency_key', { max: 255 }),
  },
  invalid,
);
const refundRequest = z.object({ idempotency_key: text('idempotency_key', { max: 255 }) }, invalid);
const refundResponse = z.object({
  response: z.literal('success'),
  refund: z.object({ charge_id: z.string(), refunded_at: z.date() }),
});
const partRefundRequest = z.object(
  {
    idempotency_key: text('idempotency_key', { max: 255 }),
    refund_key: text('refund_key', { max: 255 }),
    amount: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  },
  invalid,
);
const partRefundResponse = z.object({
  response: z.literal('success'),
  refund: z.object({ refund_id: z.string(), charge_id: z.string(), amount: z.number(), currency: z.string() }),
});
const cardLookupResponse = z.object({
  response: z.literal('success'),
  card: z.object({ brand: z.string(), mask: z.string(), expiry_month: z.number(), expiry_year: z.number() }),
});
const chargeResponse = z.object({
  response: z.literal('success'),
  charge: z.object({
    charge_id: z.string(),
    status: z.enum(['approved', 'declined']),
    amount: z.number(),
    currency: z.string(),
  }),
});

export interface CardProcessorOptions {
  /** The only origin allowed to frame the tokenizer and receive its token; the processor's own when not given. */
  appOrigin?: string;
  /** The platform's credential: the server-to-server calls need it as a bearer token. */
  credential: string;
}

const digestOf = (value: string) => createHash('sha256').update(value).digest();

/**
 * An onRequest hook admitting the platform only: `Authorization: Bearer
 * <credential>`, compared in constant time (both sides hashed to one
 * length first), before the body is read.
 */
function platformOnly(credential: string) {
  const expected = digestOf(credential);
  return (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const admitted = given !== undefined && timingSafeEqual(digestOf(given), expected);
    done(admitted ? undefined : refuse(401, errorCodes.processorCredentialRefused));
  };
}

/**
 * The sandbox card processor (platform.md §6): an external party that runs in
 * the same process for development and tests (SANDBOX_PROCESSOR; off in
 * production unless set). Its calls carry no session and no CSRF token, as a
 * third party's would not: the tokenizer page posts from its iframe, and the
 * app charges server to server with its processor credential, which card
 * lookups, charges and refunds need.
 */
export const cardProcessorRoutes: FastifyPluginAsyncZod<CardProcessorOptions> = (app, options) => {
  const noCsrf = { csrf: false, access: 'processor' as const };
  const onRequest = platformOnly(options.credential);

  app.get(
    '/api/sandbox/tokenizer',
    {
      config: {
        csrf: false,
        access: 'public',
        operation: {
          operationId: 'getTokenizerPage',
          summary: "The sandbox tokenizer's card entry page (HTML)",
          tag: 'card-processor',
          produces: 'text/html',
        },
      },
    },
    (_request, reply) => {
      const nonce = randomBytes(16).toString('base64');
      const frameAncestors = options.appOrigin ?? "'self'";
      // X-Frame-Options can only say "same origin"; frame-ancestors names another origin for browsers that know it.
      if (options.appOrigin === undefined) void reply.header('x-frame-options', 'SAMEORIGIN');
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header(
          'content-security-policy',
          `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors ${frameAncestors}`,
        )
        .send(tokenizerPage({ nonce, parentOrigin: options.appOrigin ?? null }));
    },
  );

  app.post(
    '/api/sandbox/tokenize',
    {
      config: {
        csrf: false,
        access: 'public',
        rateLimit: app.rateLimits.cardTokenize,
        operation: {
          operationId: 'tokenizeCard',
          summary: 'Turn a card number into a sandbox token',
          tag: 'card-processor',
        },
      },
      schema: { body: tokenizeRequest, response: { 200: tokenizeResponse } },
    },
    async (request) => {
      const { card_number, expiry_month, expiry_year } = request.body;
      const card = await storeCard(
        app.db,
        { number: card_number, expiryMonth: expiry_month, expiryYear: expiry_year },
        app.clock(),
      );
      return { response: 'success' as const, ...card };
    },
  );

  app.post(
    '/api/sandbox/card-lookup',
    {
      config: {
        ...noCsrf,
        operation: {
          operationId: 'lookupCardToken',
          summary: 'Describe a tokenized card (platform only)',
          tag: 'card-processor',
          errors: [404],
        },
      },
      onRequest,
      schema: { body: cardLookupRequest, response: { 200: cardLookupResponse } },
    },
    async (request) => {
      const card = await findCard(app.db, request.body.token);
      if (!card) throw refuse(404, errorCodes.cardTokenNotFound, { field: 'token' });
      return {
        response: 'success' as const,
        card: { brand: card.brand, mask: card.mask, expiry_month: card.expiry_month, expiry_year: card.expiry_year },
      };
    },
  );

  app.post(
    '/api/sandbox/charges',
    {
      config: {
        ...noCsrf,
        operation: {
          operationId: 'chargeCard',
          summary: 'Charge a tokenized card (platform only)',
          tag: 'card-processor',
          errors: [404, 409],
        },
      },
      onRequest,
      schema: { body: chargeRequest, response: { 200: chargeResponse } },
    },
    async (request) => {
      const { idempotency_key: idempotencyKey, ...charge } = request.body;
      const result = await chargeCard(app.db, { ...charge, idempotencyKey }, app.clock());
      if (result.kind === 'unknown-card') throw refuse(404, errorCodes.cardTokenNotFound, { field: 'token' });
      if (result.kind === 'key-reused')
        throw refuse(409, errorCodes.idempotencyKeyReused, { field: 'idempotency_key' });
      return { response: 'success' as const, charge: result.charge };
    },
  );

  app.post(
    '/api/sandbox/refunds',
    {
      config: {
        ...noCsrf,
        operation: {
          operationId: 'refundCharge',
          summary: 'Refund a charge in full (platform only)',
          tag: 'card-processor',
          errors: [404],
        },
      },
      onRequest,
      schema: { body: refundRequest, response: { 200: refundResponse } },
    },
    async (request) => {
      const refunded = await refundCharge(app.db, request.body.idempotency_key, app.clock());
      if (!refunded?.refunded_at) throw refuse(404, errorCodes.cardChargeNotFound, { field: 'idempotency_key' });
      return {
        response: 'success' as const,
        refund: { charge_id: refunded.charge_id, refunded_at: refunded.refunded_at },
      };
    },
  );

  // Part of a charge (a merchant's return): once per refund key, never more than the charge.
  app.post(
    '/api/sandbox/partial-refunds',
    {
      config: {
        ...noCsrf,
        operation: {
          operationId: 'refundChargePartly',
          summary: 'Refund part of a charge (platform only)',
          tag: 'card-processor',
          errors: [404, 409, 422],
        },
      },
      onRequest,
      schema: { body: partRefundRequest, response: { 200: partRefundResponse } },
    },
    async (request) => {
      const { idempotency_key: chargeKey, refund_key: refundKey, amount } = request.body;
      const result = await refundPart(app.db, { chargeKey, refundKey, amount }, app.clock());
      if (result.kind === 'unknown-charge')
        throw refuse(404, errorCodes.cardChargeNotFound, { field: 'idempotency_key' });
      if (result.kind === 'key-reused') throw refuse(409, errorCodes.idempotencyKeyReused, { field: 'refund_key' });
      if (result.kind === 'more-than-left')
        throw refuse(422, errorCodes.invalidAmount, {
          field: 'amount',
          message: `Only ${result.left} of the charge is left to refund`,
        });
      return { response: 'success' as const, refund: result.refund };
    },
  );

  return Promise.resolve();
};
