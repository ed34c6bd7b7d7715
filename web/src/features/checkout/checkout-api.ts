import {
  checkoutResponse,
  payMethodListResponse,
  paymentResponse,
  type CheckoutSession,
  type PaymentMethod,
} from '@peeks/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api.ts';

/** The checkout page's query keys. */
export const checkoutKeys = {
  all: ['checkout'] as const,
  session: (link: { id: string; token: string }) => [...checkoutKeys.all, 'session', link.id, link.token] as const,
  cards: () => [...checkoutKeys.all, 'cards'] as const,
};

/** The link's id and token as the API takes them; null when the address carries none that could be one. */
export function checkoutLink(id: string | null, token: string | null): { id: string; token: string } | null {
  if (id === null || token === null || !/^[1-9]\d{0,14}$/.test(id) || !/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  return { id, token };
}

/** GET /api/checkout/session: the purchase summary anyone holding the link may see. */
export async function loadCheckout(
  link: { id: string; token: string },
  signal?: AbortSignal,
): Promise<CheckoutSession> {
  return (await callApi('/checkout/session', checkoutResponse, { query: link, ...(signal ? { signal } : {}) }))
    .checkout;
}

/** The payer's saved credit cards (spec §2: "saved cards (type CC)"), as the payment-method list shows them. */
export async function savedCards(signal?: AbortSignal): Promise<PaymentMethod[]> {
  const { methods } = await callApi('/account/pay-method', payMethodListResponse, {
    body: {},
    ...(signal ? { signal } : {}),
  });
  return methods.filter((method) => method.type === 'CC' && method.state === 'E' && method.validated !== '');
}

/** The session the link names; none asked for without a link. */
export const useCheckoutSession = (link: { id: string; token: string } | null) =>
  useQuery({
    queryKey: checkoutKeys.session(link ?? { id: '', token: '' }),
    queryFn: ({ signal }) => loadCheckout(link ?? { id: '', token: '' }, signal),
    enabled: link !== null,
  });

/** The payer's saved cards; none asked for while `enabled` is false (a guest). */
export const useSavedCards = (enabled: boolean) =>
  useQuery({ queryKey: checkoutKeys.cards(), queryFn: ({ signal }) => savedCards(signal), enabled });

/**
 * POST /api/checkout/pay from the wallet (no `paymentMethodId`) or a saved
 * card, under the attempt's Idempotency-Key: a retry of one press pays once.
 * A dollar total paid from coins names the quote shown (`quote_id`).
 */
export async function payCheckout(
  request: { id: number; token: string; paymentMethodId?: number; quote_id?: string },
  idempotencyKey: string,
) {
  return (await callApi('/checkout/pay', paymentResponse, { body: request, idempotencyKey })).transaction;
}
