/**
 * The worker's side of a payout provider: pay a withdrawal out to a card or
 * a bank account. The sandbox implementation below talks to the sandbox
 * provider's HTTP API (sandbox-payout-server.ts), so the worker meets the
 * timeouts and failures it would meet with a real one; a real provider gets
 * an implementation of its own behind this interface.
 */
export interface PayoutRequest {
  /** The same key again is answered with the first outcome and never pays twice. */
  idempotencyKey: string;
  /** A card token of the card processor, or a bank account number. */
  destination: { kind: 'card' | 'bank'; account: string };
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
}

export type PayoutOutcome =
  | { status: 'paid'; payoutId: string }
  /** The provider would not pay this destination (a closed account, a card that takes no credits): nothing was paid. */
  | { status: 'failed'; reason: string };

export interface PayoutProvider {
  payout(request: PayoutRequest): Promise<PayoutOutcome>;
}

/**
 * The provider did not answer in time, or not with anything readable: whether
 * it paid is unknown, so the job fails and is retried with the same key.
 */
export class PayoutProviderUnavailable extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`payout provider unavailable: ${reason}`, options);
    this.name = 'PayoutProviderUnavailable';
  }
}

export interface SandboxPayoutsOptions {
  /** Where the sandbox provider listens, e.g. http://127.0.0.1:41234 (PAYOUT_URL). */
  baseUrl: string;
  timeoutMs: number;
}

export function sandboxPayouts({ baseUrl, timeoutMs }: SandboxPayoutsOptions): PayoutProvider {
  return {
    async payout({ idempotencyKey, destination, amount, currency }) {
      let response: Response;
      try {
        response = await fetch(new URL('/payouts', baseUrl), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
          body: JSON.stringify({
            destination: { kind: destination.kind, account: destination.account },
            amount,
            currency,
          }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new PayoutProviderUnavailable(error instanceof Error ? error.message : String(error), { cause: error });
      }
      let body: { payout?: { payout_id?: unknown; status?: unknown; failure_reason?: unknown }; message?: unknown };
      try {
        body = (await response.json()) as typeof body;
      } catch (error) {
        throw new PayoutProviderUnavailable(`unreadable answer (HTTP ${response.status})`, { cause: error });
      }
      const payout = body.payout;
      if (response.status === 200 && payout?.status === 'paid' && typeof payout.payout_id === 'string')
        return { status: 'paid', payoutId: payout.payout_id };
      if (response.status === 200 && payout?.status === 'failed')
        return { status: 'failed', reason: String(payout.failure_reason) };
      // A 4xx other than 409 means the provider refuses this request as such: asking again will not pay it.
      if (response.status >= 400 && response.status < 500 && response.status !== 409) {
        return {
          status: 'failed',
          reason: typeof body.message === 'string' ? body.message : `refused with HTTP ${response.status}`,
        };
      }
      // 409 (the key was used for another payout) and 5xx: nothing to decide on; retried, and an operator sees the failing job.
      throw new PayoutProviderUnavailable(
        `HTTP ${response.status}${typeof body.message === 'string' ? `: ${body.message}` : ''}`,
      );
    },
  };
}
