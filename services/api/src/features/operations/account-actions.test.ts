import {
  banDecisionResponse,
  banRequestedResponse,
  errorCodes,
  operatorAuditResponse,
  pendingBansResponse,
  personResponse,
} from '@peeks/contracts';
import { userOwnerId } from '@peeks/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';
import { signedUpOperator } from '../../testing/operations.ts';
import { expectRefusal } from '../../testing/requests.ts';
import { accountStream } from './account-actions.ts';
import { banStream } from './ban-requests.ts';

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

describe('banning a finance operator (four eyes, issue 33 finding 10)', () => {
  const ask = (by: SignedIn, target: SignedIn) =>
    by.browser.post('/api/operations/ban-user', { user_id: target.user.user_id, reason: 'Shared their console' });
  const decide = (by: SignedIn, path: 'approve-ban' | 'reject-ban', body: Record<string, unknown>, key?: string) =>
    by.browser.request('POST', `/api/operations/${path}`, body, key === undefined ? {} : { 'idempotency-key': key });
  const isBanned = async (who: SignedIn) =>
    (
      await subject.database.db
        .selectFrom('users')
        .select('is_banned')
        .where('user_id', '=', who.user.user_id)
        .executeTakeFirstOrThrow()
    ).is_banned;
  /** The target can still work: their session answers an operator's read. */
  const stillWorking = async (who: SignedIn) => (await who.browser.get('/api/operations/overview')).statusCode === 200;
  const banEvents = async (banId: string) =>
    subject.database.db
      .selectFrom('events')
      .select(['type', 'metadata'])
      .where('stream_id', '=', banStream(banId))
      .orderBy('stream_version')
      .execute();

  async function requested(by: SignedIn, target: SignedIn) {
    const answer = await ask(by, target);
    expect(answer.statusCode, answer.body).toBe(202);
    return banRequestedResponse.parse(answer.json()).ban;
  }

  it("does not ban an operator on one operator's word; a second operator's approval bans them and ends their sessions", async () => {
    const [ann, bob, carol] = await Promise.all([1, 2, 3].map(() => signedUpOperator(subject)));
    if (!ann || !bob || !carol) throw new Error('three operators expected');
    expect((await signIn(bob)).statusCode).toBe(200);

    const ban = await requested(ann, bob);
    expect(ban).toMatchObject({
      state: 'pending',
      user_id: bob.user.user_id,
      username: bob.user.username,
      reason: 'Shared their console',
      requested_by: userOwnerId(ann.user.user_id),
      requested_by_username: ann.user.username,
      decided_by: null,
    });
    // Asked again (a double click, or a second operator asking too): the same request, nothing more.
    expect((await requested(carol, bob)).ban_id).toBe(ban.ban_id);
    expect(await isBanned(bob)).toBe(false);
    expect(await stillWorking(bob)).toBe(true);
    expect(await sessionsOf(bob)).toHaveLength(2);
    expect(await accountEvents(bob)).toEqual([]);
    const pending = pendingBansResponse.parse((await carol.browser.get('/api/operations/bans?limit=200')).json());
    expect(pending.bans.map((each) => each.ban_id)).toContain(ban.ban_id);

    const approved = await decide(carol, 'approve-ban', { ban_id: ban.ban_id });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(banDecisionResponse.parse(approved.json()).ban).toMatchObject({
      state: 'approved',
      decided_by: userOwnerId(carol.user.user_id),
      decided_by_username: carol.user.username,
    });
    expect(await isBanned(bob)).toBe(true);
    expect((await bob.browser.get('/api/operations/overview')).statusCode).toBe(401);
    expectRefusal(await signIn(bob), 403, errorCodes.userBlocked, 'banned operator signing in');
    expect(await sessionsOf(bob)).toEqual([]);
    const decided = await banEvents(ban.ban_id);
    expect(decided).toHaveLength(2);
    expect(decided).toMatchObject([
      { type: 'BanRequested', metadata: { actor: userOwnerId(ann.user.user_id) } },
      { type: 'BanApproved', metadata: { actor: userOwnerId(carol.user.user_id) } },
    ]);
    const banned = await accountEvents(bob);
    expect(banned).toHaveLength(1);
    expect(banned).toMatchObject([
      {
        type: 'AccountBanned',
        data: { userId: bob.user.user_id, reason: 'Shared their console', sessionsEnded: 2 },
        metadata: { actor: userOwnerId(carol.user.user_id) },
      },
    ]);
    const left = pendingBansResponse.parse((await carol.browser.get('/api/operations/bans?limit=200')).json());
    expect(left.bans.map((each) => each.ban_id)).not.toContain(ban.ban_id);
  });

  it('refuses the operator who asked (403) and the operator to be banned (422), leaving it pending', async () => {
    const [ann, bob] = await Promise.all([1, 2].map(() => signedUpOperator(subject)));
    if (!ann || !bob) throw new Error('two operators expected');
    const ban = await requested(ann, bob);
    expectRefusal(
      await decide(ann, 'approve-ban', { ban_id: ban.ban_id }),
      403,
      errorCodes.banOwnApproval,
      'own approval',
    );
    expectRefusal(
      await decide(ann, 'reject-ban', { ban_id: ban.ban_id, reason: 'Changed my mind' }),
      403,
      errorCodes.banOwnApproval,
      'own rejection',
    );
    expectRefusal(await decide(bob, 'approve-ban', { ban_id: ban.ban_id }), 422, errorCodes.banSelf, 'the banned');
    expectRefusal(
      await decide(bob, 'approve-ban', { ban_id: 'ban_nothing' }),
      404,
      errorCodes.banRequestNotFound,
      'unknown',
    );
    expect(await isBanned(bob)).toBe(false);
    expect(await stillWorking(bob)).toBe(true);
    expect((await banEvents(ban.ban_id)).map((event) => event.type)).toEqual(['BanRequested']);
  });

  it('bans once when two operators approve at the same time, and a retry with its key gets the first answer', async () => {
    const [ann, bob, carol, dave] = await Promise.all([1, 2, 3, 4].map(() => signedUpOperator(subject)));
    if (!ann || !bob || !carol || !dave) throw new Error('four operators expected');
    const ban = await requested(ann, bob);
    const answers = await Promise.all([
      decide(carol, 'approve-ban', { ban_id: ban.ban_id }, 'carol-approves'),
      decide(carol, 'approve-ban', { ban_id: ban.ban_id }, 'carol-approves'),
      decide(dave, 'approve-ban', { ban_id: ban.ban_id }, 'dave-approves'),
      decide(dave, 'approve-ban', { ban_id: ban.ban_id }, 'dave-approves'),
    ]);
    const statuses = answers.map((answer) => answer.statusCode);
    // One operator's approval won: their two answers (the keyed one and its retry) are 200, the others 422.
    const carolWon = statuses[0] === 200;
    expect(statuses).toEqual(carolWon ? [200, 200, 422, 422] : [422, 422, 200, 200]);
    for (const answer of answers.filter((each) => each.statusCode === 422))
      expectRefusal(answer, 422, errorCodes.banDecided, 'decided already');
    // The winner's key again, later: the first answer, marked as a replay; nothing more is written.
    const replay = await decide(
      carolWon ? carol : dave,
      'approve-ban',
      { ban_id: ban.ban_id },
      carolWon ? 'carol-approves' : 'dave-approves',
    );
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await banEvents(ban.ban_id)).map((event) => event.type)).toEqual(['BanRequested', 'BanApproved']);
    expect((await accountEvents(bob)).map((event) => event.type)).toEqual(['AccountBanned']);
    expect(await isBanned(bob)).toBe(true);
  });

  it('closes a rejected ban with the reason and bans nobody; banning a person who is not an operator stays one step', async () => {
    const [ann, bob, carol] = await Promise.all([1, 2, 3].map(() => signedUpOperator(subject)));
    if (!ann || !bob || !carol) throw new Error('three operators expected');
    const ban = await requested(ann, bob);
    const rejected = await decide(carol, 'reject-ban', {
      ban_id: ban.ban_id,
      reason: 'Not the operator in the report',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(banDecisionResponse.parse(rejected.json()).ban).toMatchObject({
      state: 'rejected',
      decision_reason: 'Not the operator in the report',
    });
    expect(await isBanned(bob)).toBe(false);
    expect(await stillWorking(bob)).toBe(true);
    expectRefusal(await decide(carol, 'approve-ban', { ban_id: ban.ban_id }), 422, errorCodes.banDecided, 'after');
    // A new request may be made once the old one is closed.
    expect((await requested(ann, bob)).ban_id).not.toBe(ban.ban_id);

    const customer = await signedUp(subject, 'personal');
    const direct = await ask(ann, customer);
    expect(direct.statusCode, direct.body).toBe(200);
    expect(personResponse.parse(direct.json()).person.is_banned).toBe(true);
  });
});
