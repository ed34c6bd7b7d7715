import { documentListResponse, uploadDocumentResponse } from '@peeks/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { errorsOf, fakeJpeg, jpegWithExif, png, postForm, signedInUser, type Upload } from '../../testing/uploads.ts';

const URL = '/api/user/upload-document';

let subject: TestApp;
beforeAll(async () => {
  subject = await createTestApp({ rateLimits: { registration: { max: 1000, timeWindow: 60_000 } } });
});
afterAll(() => subject.close());

const fields = (userId: number, overrides: Record<string, string | undefined> = {}) => {
  const all: Record<string, string | undefined> = {
    user_id: String(userId),
    document_type: 'passport',
    document_number: 'AB123456',
    issuing_country: 'CA',
    issue_date: '15-06-2020',
    expiry_date: '15-06-2030',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined));
};

const scan = async (): Promise<Upload> => ({ name: 'passport.png', bytes: await png(300, 200), type: 'image/png' });

const documentsOf = (userId: number) =>
  subject.database.db.selectFrom('user_documents').select('document_id').where('user_id', '=', userId).execute();

describe('POST /api/user/upload-document', () => {
  it('stores a PNG document and lists its metadata, never its image', async () => {
    const { user, browser } = await signedInUser(subject);
    const response = await postForm(browser, URL, fields(user.user_id), { file: await scan() });
    expect(response.statusCode).toBe(200);
    const answer = uploadDocumentResponse.parse(response.json());
    expect(answer.message).toBe('Document uploaded successfully.');
    expect(answer.document).toMatchObject({
      merchant_id: null,
      user_id: user.user_id,
      document_type: 'passport',
      document_number: 'AB123456',
      issuing_country: 'CA',
      issue_date: '15-06-2020',
      expiry_date: '15-06-2030',
      content_type: 'image/png',
    });
    const list = await browser.get('/api/user/document-list');
    expect(list.statusCode).toBe(200);
    expect(documentListResponse.parse(list.json()).documents).toEqual([answer.document]);
    expect(JSON.stringify(list.json())).not.toContain('content"');
  });

  it('stores a JPEG without its EXIF', async () => {
    const { user, browser } = await signedInUser(subject);
    const response = await postForm(browser, URL, fields(user.user_id, { document_type: 'driver' }), {
      file: { name: 'licence.jpg', bytes: await jpegWithExif(300, 200) },
    });
    expect(response.statusCode).toBe(200);
    const stored = await subject.database.db
      .selectFrom('user_documents')
      .select(['content', 'content_type'])
      .where('user_id', '=', user.user_id)
      .executeTakeFirstOrThrow();
    expect(stored.content_type).toBe('image/jpeg');
    expect(stored.content.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(stored.content.includes('exif-secret-marker')).toBe(false);
  });

  it('keeps the merchant the session acts for, and answers another merchant_id with 404', async () => {
    const { user, browser } = await signedInUser(subject, 'business');
    const merchantId = String(user.merchant_id);
    const own = await postForm(browser, URL, fields(user.user_id, { merchant_id: merchantId }), { file: await scan() });
    expect(own.statusCode).toBe(200);
    expect(uploadDocumentResponse.parse(own.json()).document.merchant_id).toBe(user.merchant_id);
    const other = await postForm(
      browser,
      URL,
      fields(user.user_id, { merchant_id: String(Number(merchantId) + 1000) }),
      { file: await scan() },
    );
    expect(other.statusCode).toBe(404);
    expect(errorsOf(other)[0]?.code).toBe(40403);
    expect(await documentsOf(user.user_id)).toHaveLength(1);
  });

  it.each([
    [{ document_type: undefined }, 'document_type', 'Please select Document Type'],
    [{ document_type: 'visa' }, 'document_type', 'Please select Document Type'],
    [{ document_number: undefined }, 'document_number', 'Please enter Document Number'],
    [{ document_number: 'A' }, 'document_number', 'Please enter at least 2 characters Document Number'],
    [{ document_number: 'A'.repeat(65) }, 'document_number', 'Please enter at most 64 characters Document Number'],
    [{ issuing_country: undefined }, 'issuing_country', 'Please select Issuing Country'],
    [{ issuing_country: 'Canada' }, 'issuing_country', 'Please select Issuing Country'],
    [{ issue_date: undefined }, 'issue_date', 'Please enter Issue Date'],
    [{ issue_date: '2020-06-15' }, 'issue_date', 'Please enter valid Issue Date'],
    [{ issue_date: '31-02-2020' }, 'issue_date', 'Please enter valid Issue Date'],
    [{ issue_date: '01-01-2999', expiry_date: '01-01-3000' }, 'issue_date', 'Please enter valid Issue Date'],
    [{ expiry_date: undefined }, 'expiry_date', 'Please enter Expiry Date'],
    [{ expiry_date: '15/06/2030' }, 'expiry_date', 'Please enter valid Expiry Date'],
    [{ expiry_date: '15-06-2020' }, 'expiry_date', 'Expiry date must be after initial valid date'],
    [{ expiry_date: '14-06-2020' }, 'expiry_date', 'Expiry date must be after initial valid date'],
    [{ junk: 'x' }, undefined, 'Invalid argument(s)'],
  ])('%j: 400 with %s "%s", nothing stored', async (overrides, field, message) => {
    const { user, browser } = await signedInUser(subject);
    const response = await postForm(browser, URL, fields(user.user_id, overrides), { file: await scan() });
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toContainEqual(
      expect.objectContaining({ ...(field === undefined ? {} : { field }), message }),
    );
    expect(await documentsOf(user.user_id)).toEqual([]);
  });

  it('reports the expiry rule with catalogue code 4092', async () => {
    const { user, browser } = await signedInUser(subject);
    const response = await postForm(browser, URL, fields(user.user_id, { expiry_date: '01-01-2019' }), {
      file: await scan(),
    });
    expect(errorsOf(response)).toEqual([
      { code: 4092, field: 'expiry_date', message: 'Expiry date must be after initial valid date' },
    ]);
  });

  it.each([
    ['no file', undefined, 4215, 'Please select File'],
    [
      'a text file named .png',
      { name: 'scan.png', bytes: Buffer.from('not an image at all') },
      4003,
      'Please select a JPEG or PNG image',
    ],
    [
      'a JPEG start and then junk',
      { name: 'scan.jpg', bytes: fakeJpeg(4000) },
      4003,
      'Please select a JPEG or PNG image',
    ],
  ])('refuses %s with 400 and stores nothing', async (_case, file: Upload | undefined, code, message) => {
    const { user, browser } = await signedInUser(subject);
    const response = await postForm(browser, URL, fields(user.user_id), file ? { file } : {});
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toEqual([{ code, field: 'file', message }]);
    expect(await documentsOf(user.user_id)).toEqual([]);
  });

  it('reports field and file problems together', async () => {
    const { user, browser } = await signedInUser(subject);
    const response = await postForm(browser, URL, fields(user.user_id, { document_type: undefined }));
    expect(errorsOf(response).map((problem) => problem.field)).toEqual(['document_type', 'file']);
  });

  it('refuses a file over 5 MB with 413 and stores nothing', async () => {
    const { user, browser } = await signedInUser(subject);
    const response = await postForm(browser, URL, fields(user.user_id), {
      file: { name: 'scan.jpg', bytes: fakeJpeg(5 * 1024 * 1024 + 1) },
    });
    expect(response.statusCode).toBe(413);
    expect(errorsOf(response)).toEqual([
      { code: 41300, field: 'file', message: 'Please select a File of at most 5 MB' },
    ]);
    expect(await documentsOf(user.user_id)).toEqual([]);
  });

  it('refuses a signed-out caller with 401', async () => {
    const browser = await subject.browser();
    const response = await postForm(browser, URL, fields(1), { file: await scan() });
    expect(response.statusCode).toBe(401);
    expect((await browser.get('/api/user/document-list')).statusCode).toBe(401);
  });

  it('refuses a POST without the CSRF token with 403 and stores nothing', async () => {
    const { user, browser } = await signedInUser(subject);
    const response = await postForm(browser, URL, fields(user.user_id), { file: await scan() }, { 'x-csrf-token': '' });
    expect(response.statusCode).toBe(403);
    expect(await documentsOf(user.user_id)).toEqual([]);
  });

  it("answers another user's id with 404, stores nothing, and lists only the caller's own documents", async () => {
    const victim = await signedInUser(subject);
    expect((await postForm(victim.browser, URL, fields(victim.user.user_id), { file: await scan() })).statusCode).toBe(
      200,
    );
    const { user, browser } = await signedInUser(subject);
    const response = await postForm(browser, URL, fields(victim.user.user_id), { file: await scan() });
    expect(response.statusCode).toBe(404);
    expect(errorsOf(response)[0]?.code).toBe(2501);
    expect(await documentsOf(victim.user.user_id)).toHaveLength(1);
    expect(await documentsOf(user.user_id)).toEqual([]);
    expect(documentListResponse.parse((await browser.get('/api/user/document-list')).json()).documents).toEqual([]);
  });
});
