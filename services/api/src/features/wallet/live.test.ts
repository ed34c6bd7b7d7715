import { LIVE_SESSION_ENDED, type LiveMessage } from '@peeks/contracts';
import { userOwnerId } from '@peeks/ledger';
import { executeLedgerCommand } from '@peeks/ledger-store';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fund } from '../../testing/money.ts';
import { SESSION_COOKIE } from '../../plugins/sessions.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { connectLive, LiveClient, openLive } from '../../testing/live.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import { transfer } from '../../testing/wallet.ts';

/** Over a real socket: the app listens on a loopback port and `ws` connects as a browser would. */
let subject: TestApp;
let base: string;
beforeAll(async () => {
  subject = await createTestApp({ ...testAppOptions, live: { sweepMs: 100 }, notificationRetryMs: 20 });
  base = `127.0.0.1:${String((subject.app.server.address() as { port: number }).port)}`;
});
afterAll(() => subject.close());

const owner = (who: SignedIn) => userOwnerId(who.user.user_id);
const person = () => signedUp(subject, 'personal');

const open = (headers: Record<string, string>, url = `ws://${base}/api/live`) => openLive(headers, url);
const connect = (who: SignedIn, origin = `http://${base}`) => connectLive(base, who, origin);

const balanceMessage = (message: LiveMessage) => message.type === 'balance';
const activityOf = (txId: string) => (message: LiveMessage) =>
  message.type === 'activity' && message.transaction.tx_id === txId;

describe('GET /api/live', () => {
  it('pushes the recipient their new balance and the transfer once it commits', async () => {
    const [ann, bob, stranger] = [await person(), await person(), await person()];
    await fund(subject, owner(ann), 10_000);
    const [bobLive, annLive, strangerLive] = [await connect(bob), await connect(ann), await connect(stranger)];
    expect(await bobLive.next()).toMatchObject({ type: 'balance', balance: { currency: 'CON', balance: 0 } });
    await annLive.next(balanceMessage);
    await strangerLive.next(balanceMessage);

    const txId = await transfer(subject, owner(ann), owner(bob), 250);
    expect(await bobLive.next(activityOf(txId))).toMatchObject({
      transaction: { debit_credit: 'C', amount: 250, user_id: bob.user.user_id },
    });
    const balance = await bobLive.next(balanceMessage);
    expect(balance).toMatchObject({ balance: { balance: 250, available_balance: 250, withdrawable_balance: 0 } });
    expect(balance).toEqual({
      type: 'balance',
      balance: (await bob.browser.get('/api/account/balance')).json<{ balance: unknown }>().balance,
    });

    expect(await annLive.next(activityOf(txId))).toMatchObject({ transaction: { debit_credit: 'D' } });
    expect(await annLive.next(balanceMessage)).toMatchObject({ balance: { balance: 9_750 } });
    expect(strangerLive.messages, 'a stranger hears nothing of it').toHaveLength(1);
    for (const client of [bobLive, annLive, strangerLive]) client.socket.close();
  });

  it('announces nothing that was rolled back', async () => {
    const [ann, bob] = [await person(), await person()];
    await fund(subject, owner(ann), 10_000);
    const bobLive = await connect(bob);
    await bobLive.next(balanceMessage);

    await expect(
      subject.database.db.transaction().execute(async (trx) => {
        await executeLedgerCommand(
          trx,
          {
            type: 'Transfer',
            txId: 'rolled-back',
            kind: 'P2P',
            fromOwnerId: owner(ann),
            toOwnerId: owner(bob),
            amount: 100,
            fee: 0,
            currency: 'CON',
            memo: null,
          },
          subject.app.ledgerSettings,
        );
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const txId = await transfer(subject, owner(ann), owner(bob), 40);
    await bobLive.next(activityOf(txId));
    expect(bobLive.messages.filter((message) => message.type === 'activity')).toHaveLength(1);
    expect(await bobLive.next(balanceMessage)).toMatchObject({ balance: { balance: 40 } });
    bobLive.socket.close();
  });

  it('refuses an upgrade without a session, or from another origin, and a plain GET', async () => {
    const ann = await person();
    expect(await open({ origin: `http://${base}` })).toEqual({ refused: 401 });
    const cookie = `${SESSION_COOKIE}=${ann.browser.cookie ?? ''}`;
    expect(await open({ cookie, origin: 'https://evil.example' })).toEqual({ refused: 403 });
    expect(await open({ cookie, origin: `http://${base.replace('127.0.0.1', 'localhost')}` })).toEqual({
      refused: 403,
    });
    expect(await open({ cookie, origin: 'null' })).toEqual({ refused: 403 });
    expect((await ann.browser.get('/api/live')).statusCode).toBe(426);
    const sameOrigin = await connect(ann);
    await sameOrigin.next(balanceMessage);
    sameOrigin.socket.close();
  });

  it('closes the socket when its session ends: at logout, and when it ends elsewhere', async () => {
    const [ann, bob] = [await person(), await person()];
    const annLive = await connect(ann);
    await annLive.next(balanceMessage);
    expect((await ann.browser.post('/api/logout', {})).statusCode).toBe(200);
    expect(await annLive.closed).toEqual({ code: LIVE_SESSION_ENDED, reason: 'session ended' });

    const bobLive = await connect(bob);
    await bobLive.next(balanceMessage);
    // As another process's logout, or a password change there, would leave it: the row gone.
    await subject.database.db.deleteFrom('sessions').where('user_id', '=', bob.user.user_id).execute();
    expect((await bobLive.closed).code).toBe(LIVE_SESSION_ENDED);
  });

  it('ends a socket that answers no pings for two sweeps', async () => {
    const ann = await person();
    const silent = await openLive(
      { cookie: `${SESSION_COOKIE}=${ann.browser.cookie ?? ''}`, origin: `http://${base}` },
      `ws://${base}/api/live`,
      { autoPong: false },
    );
    if (!(silent instanceof LiveClient)) throw new Error('refused');
    await silent.next(balanceMessage);
    expect((await silent.closed).code, 'terminated, not closed with a reason').toBe(1006);
  });

  it('listens again after losing its connection, and resyncs the balance', async () => {
    const [ann, bob] = [await person(), await person()];
    await fund(subject, owner(ann), 10_000);
    const bobLive = await connect(bob);
    await bobLive.next(balanceMessage);

    const { rows } = await sql<{ ended: boolean }>`
      SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = 'peeks-notifications' AND datname = current_database()
    `.execute(subject.database.db);
    expect(rows).toEqual([{ ended: true }]);
    expect(await bobLive.next(balanceMessage)).toMatchObject({ balance: { balance: 0 } });

    const txId = await transfer(subject, owner(ann), owner(bob), 75);
    await bobLive.next(activityOf(txId));
    expect(await bobLive.next(balanceMessage)).toMatchObject({ balance: { balance: 75 } });
    bobLive.socket.close();
  });
});

describe('shutting down', () => {
  it('closes live sockets as going away, and app.close does not wait on them', async () => {
    const other = await createTestApp({ ...testAppOptions, database: subject.database });
    const port = String((other.app.server.address() as { port: number }).port);
    const ann = await signedUp(other, 'personal');
    const client = await open(
      { cookie: `${SESSION_COOKIE}=${ann.browser.cookie ?? ''}` },
      `ws://127.0.0.1:${port}/api/live`,
    );
    if (!(client instanceof LiveClient)) throw new Error('refused');
    await client.next(balanceMessage);

    const started = Date.now();
    await other.close();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect((await client.closed).code).toBe(1001);
  });
});
