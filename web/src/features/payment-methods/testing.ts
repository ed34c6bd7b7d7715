import type { PaymentMethod } from '@peeks/contracts';
export { storedCard } from '../../testing/payment-methods.ts';
import { fakeApi, ok, sessionUser, type Handler } from '../../testing/app.tsx';
import { quoteApi } from '../../testing/quotes.ts';

/** The API of a signed-in user whose payment methods are `methods` (changed in place by add, select and delete). */
export function paymentApi(methods: PaymentMethod[], handlers: Record<string, Handler> = {}) {
  const quotes = quoteApi();
  const api = fakeApi({
    'POST /api/account/quote': quotes.handler,
    'GET /api/session': () => ok({ user: sessionUser(), csrfToken: 'csrf-signed-in' }),
    'POST /api/account/pay-method': () => ok({ methods, total: methods.length }),
    'GET /api/wallet/payment-provider-lookup': () =>
      ok({
        detail: {
          provider: 'sandbox',
          timestamp: '2026-11-21T20:00:00.000Z',
          domain: 'http://localhost:3000',
          authkey: 'ab12',
          token_type: 'sandbox',
          tokenizer_url: '/api/sandbox/tokenizer',
        },
      }),
    'POST /api/account/forex-lookup': () =>
      ok({
        forex: {
          currency: 'USD',
          target: 'CON',
          rate_micros: 1_000_000,
          coins_per_unit: 20,
          coin_micros_per_unit: 20_000_000,
        },
      }),
    'GET /api/account/balance': () =>
      ok({ balance: { currency: 'CON', balance: 0, available_balance: 0, withdrawable_balance: 0, balances: [] } }),
    ...handlers,
  });
  return { ...api, quotes };
}
