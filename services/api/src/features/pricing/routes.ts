import { quoteRequest, quoteResponse, type QuoteRequest } from '@peeks/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireSignIn } from '../../plugins/sessions.ts';
import type { QuoteAsk } from './price-list.ts';
import { newQuote, quoteView } from './quotes.ts';

/** The body's conversion as the price list reads it (the schema has checked one side is coins and one amount given). */
function askOf(body: QuoteRequest): QuoteAsk {
  const amount = body.amount_in === undefined ? { amountOut: body.amount_out ?? 0 } : { amountIn: body.amount_in };
  if (body.to_currency === 'CON' && body.from_currency !== 'CON')
    return { from: body.from_currency, to: 'CON', ...amount };
  if (body.from_currency === 'CON' && body.to_currency !== 'CON')
    return { from: 'CON', to: body.to_currency, ...amount };
  throw new RangeError('a quote converts between coins and cash');
}

/** Quotes: the terms of a conversion, shown before the person confirms it. */
export const pricingRoutes: FastifyPluginAsyncZod = (app) => {
  app.addHook('onRequest', requireSignIn);

  app.post(
    '/api/account/quote',
    {
      config: {
        operation: {
          operationId: 'quoteConversion',
          summary: 'Quote a conversion between coins and USD or CAD',
          tag: 'wallet',
          description:
            'The terms a conversion will use, for about a minute: a command naming the quote_id pays exactly these, or gets 409 with a fresh quote.',
          example: { from_currency: 'CAD', to_currency: 'CON', amount_out: 100_000 },
        },
      },
      schema: { body: quoteRequest, response: { 200: quoteResponse } },
    },
    async (request) => ({
      response: 'success' as const,
      quote: quoteView(await newQuote(request, askOf(request.body))),
    }),
  );

  return Promise.resolve();
};
