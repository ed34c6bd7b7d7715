import { agreementListResponse, agreementLookupResponse, errorEnvelope, type Agreement } from '@peeks/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { signedUp, testAppOptions, type SignedIn } from '../../testing/merchants.ts';

// A fixed clock, so agree_by and effective dates are compared with a known time.
const now = new Date('2030-01-01T09:00:00Z');
let subject: TestApp;
let merchant: SignedIn;
let personal: SignedIn;
beforeAll(async () => {
  subject = await createTestApp({ ...testAppOptions, clock: () => now });
  merchant = await signedUp(subject, 'business');
  personal = await signedUp(subject, 'personal');
});
afterAll(() => subject.close());

const problems = (response: { json: () => unknown }) => errorEnvelope.parse(response.json()).errors;
const list = async (who: SignedIn, filters: Record<string, unknown> = {}) =>
  agreementListResponse.parse((await who.browser.post('/api/agreement/agreement-list', filters)).json()).agreements;
const byName = (agreements: Agreement[], name: string) => {
  const found = agreements.find((each) => each.name === name);
  if (!found) throw new Error(`no ${name}`);
  return found;
};

/** An agreement of its own for one test, so tests do not share acceptances. */
async function newAgreement(
  fields: {
    audience?: 'user' | 'merchant';
    agree_by?: Date | null;
    effective_date?: Date;
    expiry_date?: Date | null;
  } = {},
) {
  const row = await subject.database.db
    .insertInto('agreements')
    .values({
      name: `Test ${Math.random().toString(36).slice(2)}`,
      version: 1,
      category: 'Test',
      audience: fields.audience ?? 'user',
      short_description: '<p>text</p>',
      effective_date: fields.effective_date ?? new Date('2029-01-01T00:00:00Z'),
      expiry_date: fields.expiry_date ?? null,
      agree_by: fields.agree_by === undefined ? new Date('2031-01-01T00:00:00Z') : fields.agree_by,
    })
    .returning('agreement_id')
    .executeTakeFirstOrThrow();
  return row.agreement_id;
}
const answer = (who: SignedIn, body: Record<string, unknown>) =>
  who.browser.post('/api/agreement/update-agreement', body);
const lookup = async (who: SignedIn, id: number) =>
  agreementLookupResponse.parse((await who.browser.get(`/api/agreement/agreement-lookup?id=${id}`)).json()).agreement;

describe('seeded agreements', () => {
  it('a merchant sees both, pending; a personal user only the user one', async () => {
    const forMerchant = await list(merchant);
    expect(byName(forMerchant, 'Terms and Conditions')).toMatchObject({
      version: 1,
      audience: 'user',
      is_accepted: false,
      agreed_to: null,
    });
    expect(byName(forMerchant, 'Merchant Services Agreement')).toMatchObject({
      audience: 'merchant',
      is_accepted: false,
    });
    const forPersonal = await list(personal);
    expect(forPersonal.map((each) => each.name)).toContain('Terms and Conditions');
    expect(forPersonal.map((each) => each.name)).not.toContain('Merchant Services Agreement');
    expect((await list(merchant, { user_only: true })).every((each) => each.audience === 'user')).toBe(true);
  });
});

describe('POST /api/agreement/update-agreement', () => {
  it('accepting records who and when; agreed_to filters', async () => {
    const id = await newAgreement();
    const response = await answer(personal, { agreement_id: id, agreed_to: true });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      agreement: { agreement_id: id, is_accepted: true, is_skipped: false, agreed_to: now.toISOString() },
    });
    const row = await subject.database.db
      .selectFrom('agreement_acceptances')
      .selectAll()
      .where('agreement_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: personal.user.user_id, merchant_id: null, agreed_at: now });
    expect((await list(personal, { agreed_to: true })).map((each) => each.agreement_id)).toContain(id);
    expect((await list(personal, { agreed_to: false })).map((each) => each.agreement_id)).not.toContain(id);
    // Another user's acceptance is theirs alone.
    expect((await lookup(merchant, id)).is_accepted).toBe(false);
  });

  it("requires the checkbox: 'Please accept terms and conditions'", async () => {
    const id = await newAgreement();
    for (const body of [{ agreement_id: id }, { agreement_id: id, agreed_to: false }]) {
      const response = await answer(personal, body);
      expect(response.statusCode).toBe(400);
      expect(problems(response)).toContainEqual(
        expect.objectContaining({ field: 'agreed_to', message: 'Please accept terms and conditions' }),
      );
    }
    expect((await lookup(personal, id)).is_accepted).toBe(false);
  });

  it('skipping is allowed before agree_by and refused from then on', async () => {
    const open = await newAgreement({ agree_by: new Date(now.getTime() + 60_000) });
    const skipped = await answer(personal, { agreement_id: open, skip: true });
    expect(skipped.statusCode).toBe(200);
    expect(skipped.json()).toMatchObject({ agreement: { is_accepted: false, is_skipped: true } });

    const closed = await newAgreement({ agree_by: now });
    const late = await answer(personal, { agreement_id: closed, skip: true });
    expect(late.statusCode).toBe(422);
    expect(problems(late)).toEqual([{ code: 42232, message: 'This agreement can no longer be skipped' }]);
    expect((await lookup(personal, closed)).is_skipped).toBe(false);
    // Accepting is still possible after agree_by.
    expect((await answer(personal, { agreement_id: closed, agreed_to: true })).statusCode).toBe(200);
  });

  it('an agreement not yet or no longer in effect cannot be accepted, and valid_only leaves it out', async () => {
    const future = await newAgreement({ effective_date: new Date('2031-01-01T00:00:00Z') });
    const expired = await newAgreement({
      effective_date: new Date('2028-01-01T00:00:00Z'),
      expiry_date: new Date('2029-01-01T00:00:00Z'),
    });
    for (const id of [future, expired]) {
      const response = await answer(personal, { agreement_id: id, agreed_to: true });
      expect(response.statusCode).toBe(422);
      expect(problems(response)[0]?.code).toBe(42233);
    }
    const valid = (await list(personal, { valid_only: true })).map((each) => each.agreement_id);
    expect(valid).not.toContain(future);
    expect(valid).not.toContain(expired);
    expect((await list(personal)).map((each) => each.agreement_id)).toEqual(expect.arrayContaining([future, expired]));
  });

  it('a merchant agreement is accepted once for the merchant; a personal user cannot see or answer it', async () => {
    const id = await newAgreement({ audience: 'merchant' });
    expect((await answer(merchant, { agreement_id: id, agreed_to: true })).statusCode).toBe(200);
    const row = await subject.database.db
      .selectFrom('agreement_acceptances')
      .selectAll()
      .where('agreement_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: merchant.user.user_id, merchant_id: merchant.merchantId });

    const response = await answer(personal, { agreement_id: id, agreed_to: true });
    expect(response.statusCode).toBe(404);
    expect(problems(response)[0]?.code).toBe(40413);
    expect((await personal.browser.get(`/api/agreement/agreement-lookup?id=${id}`)).statusCode).toBe(404);
    const rows = await subject.database.db
      .selectFrom('agreement_acceptances')
      .select('user_id')
      .where('agreement_id', '=', id)
      .execute();
    expect(rows).toEqual([{ user_id: merchant.user.user_id }]);
  });

  it('naming another user or merchant is 404 and records nothing', async () => {
    const id = await newAgreement();
    expect(
      (await answer(personal, { agreement_id: id, agreed_to: true, user_id: merchant.user.user_id })).statusCode,
    ).toBe(404);
    expect(
      (await answer(merchant, { agreement_id: id, agreed_to: true, merchant_id: merchant.merchantId + 1000 }))
        .statusCode,
    ).toBe(404);
    expect(
      (await personal.browser.post('/api/agreement/agreement-list', { user_id: merchant.user.user_id })).statusCode,
    ).toBe(404);
    expect(
      await subject.database.db
        .selectFrom('agreement_acceptances')
        .select('user_id')
        .where('agreement_id', '=', id)
        .execute(),
    ).toEqual([]);
  });

  it('an unknown agreement is 404', async () => {
    expect((await personal.browser.get('/api/agreement/agreement-lookup?id=999999')).statusCode).toBe(404);
    expect((await answer(personal, { agreement_id: 999_999, agreed_to: true })).statusCode).toBe(404);
  });
});
