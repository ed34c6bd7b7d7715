/**
 * The platform's side of a card processor: look a token up, charge it,
 * refund it. The
 * sandbox implementation below talks to the sandbox processor's HTTP API,
 * so the app meets the same timeouts and failures it would meet with a real
 * one; a real processor gets an implementation of its own behind this
 * interface.
 */
export interface CardOnFile {
  brand: string;
  mask: string;
  expiryMonth: number;
  expiryYear: number;
}

export interface ChargeRequest {
  token: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  /** The same key again is answered with the first outcome and never charges twice. */
  idempotencyKey: string;
}

export type ChargeOutcome =
  | { status: 'approved'; chargeId: string }
  | { status: 'declined'; chargeId: string }
  /** The idempotency key was used before for another charge: nothing was charged now. */
  | { status: 'key-reused' }
  /** The processor does not know the token, or refuses the request outright. */
  | { status: 'refused'; reason: string };

export interface CardCharges {
  cardOf(token: string): Promise<CardOnFile | null>;
  charge(request: ChargeRequest): Promise<ChargeOutcome>;
  /** Gives back the approved charge made under `idempotencyKey`; again is harmless. */
  refund(idempotencyKey: string): Promise<void>;
  /**
   * Gives back `amount` of the charge made under `chargeKey`, once per
   * `refundKey` (asking again gets the same refund); 'no-charge' when no
   * approved charge has that key.
   */
  refundPart(request: PartRefundRequest): Promise<PartRefundOutcome>;
}

export type PartRefundOutcome =
  | { refundId: string }
  | 'no-charge'
  /** The processor answered, and will not make this refund (more than is left of the charge, a key reused): asking again changes nothing. */
  | { refused: string };

export interface PartRefundRequest {
  chargeKey: string;
  refundKey: string;
  /** Minor units of the charge's currency. */
  amount: number;
}

export const PROCESSOR_UNAVAILABLE = 'The card processor is not answering; please try again';

/**
 * The processor did not answer in time, or not with anything readable. The
 * API answers 503 (a retry with the same Idempotency-Key is safe whether or
 * not the charge went through); a worker leaves the job to its next run.
 * The reason goes to the log only.
 */
export class CardProcessorUnavailable extends Error {
  readonly reason: string;
  constructor(reason: string, options?: { cause?: unknown }) {
    super(PROCESSOR_UNAVAILABLE, options);
    this.name = 'CardProcessorUnavailable';
    this.reason = reason;
  }
}

export interface SandboxCardChargesOptions {
  /** Where the sandbox processor listens, e.g. http://127.0.0.1:3000; asked on every call. */
  baseUrl: () => string;
  timeoutMs: number;
  /** The platform's processor credential, sent as a bearer token on every call. */
  credential: string;
}

type Answer = { status: number; body: Record<string, unknown> };

export function sandboxCardCharges({ baseUrl, timeoutMs, credential }: SandboxCardChargesOptions): CardCharges {
  async function post(path: string, body: unknown): Promise<Answer> {
    let response: Response;
    try {
      response = await fetch(new URL(path, baseUrl()), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${credential}` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new CardProcessorUnavailable(error instanceof Error ? error.message : String(error), { cause: error });
    }
    if (response.status >= 500) throw new CardProcessorUnavailable(`HTTP ${response.status}`);
    try {
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    } catch (error) {
      throw new CardProcessorUnavailable('unreadable answer', { cause: error });
    }
  }

  return {
    async cardOf(token) {
      const answer = await post('/api/sandbox/card-lookup', { token });
      if (answer.status === 404) return null;
      const card = answer.body.card as
        { brand: string; mask: string; expiry_month: number; expiry_year: number } | undefined;
      if (answer.status !== 200 || card === undefined)
        throw new CardProcessorUnavailable(`card lookup answered HTTP ${answer.status}`);
      return { brand: card.brand, mask: card.mask, expiryMonth: card.expiry_month, expiryYear: card.expiry_year };
    },

    async charge({ token, amount, currency, idempotencyKey }) {
      const answer = await post('/api/sandbox/charges', { token, amount, currency, idempotency_key: idempotencyKey });
      const charge = answer.body.charge as { charge_id: string; status: 'approved' | 'declined' } | undefined;
      if (answer.status === 200 && charge !== undefined) return { status: charge.status, chargeId: charge.charge_id };
      if (answer.status === 409) return { status: 'key-reused' };
      if (answer.status >= 400 && answer.status < 500)
        return {
          status: 'refused',
          reason: typeof answer.body.message === 'string' ? answer.body.message : `HTTP ${answer.status}`,
        };
      throw new CardProcessorUnavailable(`charge answered HTTP ${answer.status}`);
    },

    async refundPart({ chargeKey, refundKey, amount }) {
      const answer = await post('/api/sandbox/partial-refunds', {
        idempotency_key: chargeKey,
        refund_key: refundKey,
        amount,
      });
      if (answer.status === 404) return 'no-charge';
      const refund = answer.body.refund as { refund_id: string } | undefined;
      if (answer.status === 200 && refund !== undefined) return { refundId: refund.refund_id };
      // A 4xx is the processor's answer, not its silence: the same refund asked again gets it again.
      if (answer.status >= 400 && answer.status < 500)
        return {
          refused: typeof answer.body.message === 'string' ? answer.body.message : `HTTP ${answer.status}`,
        };
      throw new CardProcessorUnavailable(`partial refund answered HTTP ${answer.status}`);
    },

    async refund(idempotencyKey) {
      const answer = await post('/api/sandbox/refunds', { idempotency_key: idempotencyKey });
      if (answer.status !== 200) throw new CardProcessorUnavailable(`refund answered HTTP ${answer.status}`);
    },
  };
}
