import type { Database } from '@peeks/db';
import type { Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The platform's declined test card (platform.md §6): payouts to it fail, as charges to it are declined. */
export const FAILING_PAYOUT_CARD = '4000000000000002';

export interface SandboxPayoutServerOptions {
  db: Kysely<Database>;
  /** A bank account number payouts to which fail (PAYOUT_SANDBOX_FAIL_ACCOUNT). */
  failingAccount: string;
  now?: () => Date;
}

type PayoutBody = { destination: { kind: 'card' | 'bank'; account: string }; amount: number; currency: string };

/**
 * The sandbox payout provider: an external party that the worker runs on
 * loopback for development and tests, answering over HTTP as a real payout
 * API would. `POST /payouts` with an `Idempotency-Key` header pays once per
 * key: the same key again gets the first payout back, with another request
 * a 409. It pays every destination except the declined test card and the
 * configured failing bank account, which get a `failed` payout; a card token
 * the processor does not know is a 404.
 */
export async function startSandboxPayoutServer(
  options: SandboxPayoutServerOptions,
): Promise<{ url: string; close: () => Promise<void> }> {
  const now = options.now ?? (() => new Date());
  const server: Server = createServer((request, response) => {
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    handle(request, options, now).then(
      ({ status, body }) => {
        answer(status, body);
      },
      () => {
        answer(500, { message: 'the sandbox payout provider failed' });
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

async function handle(
  request: IncomingMessage,
  options: SandboxPayoutServerOptions,
  now: () => Date,
): Promise<{ status: number; body: unknown }> {
  if (request.method !== 'POST' || request.url !== '/payouts')
    return { status: 404, body: { message: 'no such route' } };
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string' || key === '' || key.length > 255)
    return { status: 400, body: { message: 'Idempotency-Key is required' } };
  const body = readPayout(await readBody(request));
  if (!body) return { status: 400, body: { message: 'destination, amount and currency are required' } };

  const first = await findPayout(options.db, key);
  if (first) return samePayout(first, body) ? { status: 200, body: { payout: payoutView(first) } } : keyReused;

  const failure = await failureOf(options.db, body.destination, options.failingAccount);
  if (failure === 'unknown card') return { status: 404, body: { message: 'card token does not exist' } };
  const inserted = await options.db
    .insertInto('sandbox_payouts')
    .values({
      payout_id: `po_${randomBytes(12).toString('hex')}`,
      idempotency_key: key,
      destination_kind: body.destination.kind,
      destination: body.destination.account,
      amount: body.amount,
      currency: body.currency,
      status: failure.reason === null ? 'paid' : 'failed',
      failure_reason: failure.reason,
      created_at: now(),
    })
    .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
    .returningAll()
    .executeTakeFirst();
  // A concurrent call with the same key won the insert: answer with its payout.
  const payout = inserted ?? (await findPayout(options.db, key));
  if (!payout) throw new Error(`payout ${key} vanished`);
  return samePayout(payout, body) ? { status: 200, body: { payout: payoutView(payout) } } : keyReused;
}

const keyReused = { status: 409, body: { message: 'this Idempotency-Key was used for another payout' } };

function findPayout(db: Kysely<Database>, key: string) {
  return db.selectFrom('sandbox_payouts').selectAll().where('idempotency_key', '=', key).executeTakeFirst();
}

type PayoutRow = NonNullable<Awaited<ReturnType<typeof findPayout>>>;

const samePayout = (row: PayoutRow, body: PayoutBody) =>
  row.destination_kind === body.destination.kind &&
  row.destination === body.destination.account &&
  row.amount === body.amount &&
  row.currency === body.currency;

const payoutView = (row: PayoutRow) => ({
  payout_id: row.payout_id,
  status: row.status,
  failure_reason: row.failure_reason,
  amount: row.amount,
  currency: row.currency,
});

/** Why the provider will not pay this destination (null: it pays). */
async function failureOf(
  db: Kysely<Database>,
  destination: PayoutBody['destination'],
  failingAccount: string,
): Promise<{ reason: string | null } | 'unknown card'> {
  if (destination.kind === 'bank')
    return { reason: destination.account === failingAccount ? 'The bank account refused the payout' : null };
  const card = await db
    .selectFrom('sandbox_cards')
    .select('card_number')
    .where('token', '=', destination.account)
    .executeTakeFirst();
  if (!card) return 'unknown card';
  return { reason: card.card_number === FAILING_PAYOUT_CARD ? 'The card does not accept payouts' : null };
}

function readPayout(value: unknown): PayoutBody | null {
  if (typeof value !== 'object' || value === null) return null;
  const { destination, amount, currency } = value as Record<string, unknown>;
  if (typeof destination !== 'object' || destination === null) return null;
  const { kind, account } = destination as Record<string, unknown>;
  if ((kind !== 'card' && kind !== 'bank') || typeof account !== 'string' || account === '') return null;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0) return null;
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) return null;
  return { destination: { kind, account }, amount, currency };
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > 64 * 1024) return null;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return null;
  }
}
