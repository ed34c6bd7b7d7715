import { errorCodes, operatorAuditResponse, personResponse } from '@peeks/contracts';
import { userOwnerId } from '@peeks/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import { signedUpOperator } from '../../testing/operations.ts';
import { expectRefusal } from '../../testing/route-table.ts';
import { accountStream } from './account-actions.ts';

let subject: TestApp;
let operator: SignedIn;
beforeAll(async () => {
  subject = await createTestApp(testAppOptions);
  operator = await signedUpOperator(subject);
});
afterAll(() => subject.close());

const post = (url: string, body: Record<string, unknown>) => operator.browser.post(url, body);
const sessionsOf = async (who: SignedIn) =>
  personResponse.parse((await operator.browser.get(`/api/operations/person?user_id=${who.user.user_id}`)).json())
    .sessions;
const signIn = async (who: SignedIn) => {
  const browser = await subject.browser();
  return browser.post('/api/login', { username: who.user.username, password: 'Secret12' });
};
const accountEvents = async (who: SignedIn) =>
  subject.database.db
    .selectFrom('events')
    .select(['type', 'data', 'metadata'])
    .where('stream_id', '=', accountStream(who.user.user_id))
    .orderBy('stream_version')
    .execute();

describe('revoking a session', () => {
  it('signs that session out at its next request, leaves the others, and is an event with the operator as actor', async () => {
    const ann = await signedUp(subject, 'personal');
    const second = await signIn(ann);
    expect(second.statusCode).toBe(200);
    const sessions = await sessionsOf(ann);
    expect(sessions).toHaveLength(2);
    // The newest first: the second sign-in's, so the first browser keeps its session.
    const [newest] = sessions;
    const answer = await post('/api/operations/revoke-session', {
      user_id: ann.user.user_id,
      session_id: newest?.session_id,
      reason: 'Lost phone',
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(personResponse.parse(answer.json()).sessions.map((each) => each.session_id)).not.toContain(
      newest?.session_id,
    );
    expect((await ann.browser.get(`/api/user/user-lookup?id=${ann.user.user_id}`)).statusCode).toBe(200);
    expect(await accountEvents(ann)).toMatchObject([
      {
        type: 'SessionRevoked',
        data: { userId: ann.user.user_id, sessionId: newest?.session_id, reason: 'Lost phone' },
        metadata: { actor: userOwnerId(operator.user.user_id) },
      },
    ]);

    // Again: it is gone, so 404, and nothing more is written.
    expectRefusal(
      await post('/api/operations/revoke-session', {
        user_id: ann.user.user_id,
        session_id: newest?.session_id,
        reason: 'Lost phone',
      }),
      404,
      errorCodes.sessionNotFound,
      'revoked twice',
    );
    expect(await accountEvents(ann)).toHaveLength(1);
  });

  it("is 404 for another user's session, and 400 for an id that is not one", async () => {
    const ann = await signedUp(subject, 'personal');
    const bob = await signedUp(subject, 'personal');
    const [annSession] = await sessionsOf(ann);
    expectRefusal(
      await post('/api/operations/revoke-session', {
        user_id: bob.user.user_id,
        session_id: annSession?.session_id,
        reason: 'x',
      }),
      404,
      errorCodes.sessionNotFound,
      "another's session",
    );
    expect((await ann.browser.get(`/api/user/user-lookup?id=${ann.user.user_id}`)).statusCode).toBe(200);
    expectRefusal(
      await post('/api/operations/revoke-session', { user_id: ann.user.user_id, session_id: 'zz', reason: 'x' }),
      400,
      undefined,
      'bad id',
    );
  });
});

describe('banning', () => {
  it('ends every session at once, refuses sign-in, and unbanning lets them back; each change once', async () => {
    const ann = await signedUp(subject, 'personal');
    expect((await signIn(ann)).statusCode).toBe(200);
    const banned = await Promise.all(
      [1, 2].map(() => post('/api/operations/ban-user', { user_id: ann.user.user_id, reason: 'Fraud report' })),
    );
    for (const answer of banned) {
      expect(answer.statusCode, answer.body).toBe(200);
      expect(personResponse.parse(answer.json())).toMatchObject({ person: { is_banned: true }, sessions: [] });
    }
    expect((await ann.browser.get(`/api/user/user-lookup?id=${ann.user.user_id}`)).statusCode).toBe(401);
    expectRefusal(await signIn(ann), 403, errorCodes.userBlocked, 'banned sign-in');

    const unbanned = await post('/api/operations/unban-user', { user_id: ann.user.user_id, reason: 'Cleared' });
    expect(personResponse.parse(unbanned.json()).person.is_banned).toBe(false);
    expect((await signIn(ann)).statusCode).toBe(200);

    // Two bans at once wrote one event: the second found it done.
    expect((await accountEvents(ann)).map((event) => [event.type, event.data])).toEqual([
      ['AccountBanned', { userId: ann.user.user_id, reason: 'Fraud report', sessionsEnded: 2 }],
      ['AccountUnbanned', { userId: ann.user.user_id, reason: 'Cleared' }],
    ]);
    const audit = operatorAuditResponse.parse(
      (await operator.browser.get(`/api/operations/audit?user_id=${operator.user.user_id}`)).json(),
    );
    expect(audit.actions.slice(0, 2).map((action) => [action.type, action.reason])).toEqual([
      ['AccountUnbanned', 'Cleared'],
      ['AccountBanned', 'Fraud report'],
    ]);
  });

  it('refuses an operator banning themselves, an unknown user, and anyone who is not an operator', async () => {
    expectRefusal(
      await post('/api/operations/ban-user', { user_id: operator.user.user_id, reason: 'x' }),
      422,
      errorCodes.banSelf,
      'self',
    );
    expectRefusal(
      await post('/api/operations/ban-user', { user_id: 999_999, reason: 'x' }),
      404,
      errorCodes.userNotFound,
      'unknown',
    );
    const ann = await signedUp(subject, 'personal');
    const bob = await signedUp(subject, 'personal');
    expectRefusal(
      await ann.browser.post('/api/operations/ban-user', { user_id: bob.user.user_id, reason: 'x' }),
      403,
      errorCodes.financeOperatorOnly,
      'not an operator',
    );
    expectRefusal(
      await post('/api/operations/ban-user', { user_id: bob.user.user_id, reason: '' }),
      400,
      undefined,
      'no reason',
    );
  });
});
