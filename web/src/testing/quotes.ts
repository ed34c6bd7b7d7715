import type { Quote, QuoteRequest } from '@peeks/contracts';
import { ok, type Answer, type Handler } from './app.tsx';

/** Coins per unit of cash, in millionths, as the API's price list has them (spec §9: 20 per USD, CAD at 0.78). */
const COIN_MICROS: Record<'USD' | 'CAD', number> = { USD: 20_000_000, CAD: 15_600_000 };

/**
 * The terms the API's price list gives `ask` (cash in cents, coins in
 * hundredths), valid for a minute; `serial` numbers the quotes so each one
 * asked has its own id.
 */
export function quoteFor(ask: QuoteRequest, serial: number, overrides: Partial<Quote> = {}): Quote {
  const cash = ask.from_currency === 'CON' ? ask.to_currency : ask.from_currency;
  const micros = COIN_MICROS[cash as 'USD' | 'CAD'];
  // coins (hundredths) = cents × micros / 1e6
  const toCoins = (cents: number) => Math.floor((cents * micros) / 1_000_000);
  const toCents = (coins: number) => Math.ceil((coins * 1_000_000) / micros);
  const buying = ask.to_currency === 'CON';
  const amountIn =
    ask.amount_in ?? (buying ? toCents(ask.amount_out ?? 0) : Math.ceil(((ask.amount_out ?? 0) * micros) / 1_000_000));
  const amountOut = ask.amount_out ?? (buying ? toCoins(amountIn) : toCents(amountIn));
  return {
    quote_id: `qt_${String(serial)}`,
    from_currency: ask.from_currency,
    to_currency: ask.to_currency,
    amount_in: amountIn,
    amount_out: amountOut,
    fee: 0,
    rate: String(micros / 1_000_000),
    rate_micros: micros,
    usd_rate_micros: cash === 'USD' ? 1_000_000 : 780_000,
    expires_at: new Date(Date.now() + 60_000).toISOString(),
    ...overrides,
  };
}

/** A stand-in for POST /api/account/quote: each call a new quote at the price list, its requests kept. */
export function quoteApi() {
  let serial = 0;
  const issued: Quote[] = [];
  const handler: Handler = (body) => {
    serial += 1;
    const quote = quoteFor(body as QuoteRequest, serial);
    issued.push(quote);
    return ok({ quote });
  };
  return { handler, issued, last: () => issued.at(-1) };
}

/** The API's 409 for an expired quote: its words, and a fresh quote to confirm instead. */
export function staleQuote(fresh: Quote): Answer {
  const message = 'This quote has expired; please confirm the new one';
  return {
    status: 409,
    body: { response: 'error', message, errors: [{ code: 40930, field: 'quote_id', message }], quote: fresh },
  };
}
