import { sessionResponse, uploadAvatarResponse } from '@peeks/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import {
  errorsOf,
  fakeJpeg,
  jpegWithExif,
  noiseJpeg,
  png,
  postForm,
  postRaw,
  signedInUser,
  type Upload,
} from '../../testing/uploads.ts';

const URL = '/api/user/user-upload-avatar';

let subject: TestApp;
beforeAll(async () => {
  subject = await createTestApp({ rateLimits: { registration: { max: 1000, timeWindow: 60_000 } } });
});
afterAll(() => subject.close());

const uploadAvatar = (
  browser: Parameters<typeof postForm>[0],
  userId: number,
  file?: Upload,
  extra: Record<string, string> = {},
) => postForm(browser, URL, { user_id: String(userId), ...extra }, file ? { file } : {});

/** Nothing of the user's avatar was stored: no row, and the user's field untouched. */
async function expectNoAvatar(userId: number) {
  const rows = await subject.database.db
    .selectFrom('user_avatars')
    .select('user_id')
    .where('user_id', '=', userId)
    .execute();
  expect(rows).toEqual([]);
  const user = await subject.database.db
    .selectFrom('users')
    .select('avatar')
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  expect(user.avatar).toBeNull();
}

describe('POST /api/user/user-upload-avatar', () => {
  it("stores a re-encoded JPEG without its EXIF, within 512 pixels, and makes it the user's avatar", async () => {
    const { user, browser } = await signedInUser(subject);
    const original = await jpegWithExif(800, 600);
    expect(original.includes('exif-secret-marker')).toBe(true);
    const response = await uploadAvatar(browser, user.user_id, { name: 'me.JPG', bytes: original, type: 'image/jpeg' });
    expect(response.statusCode).toBe(200);
    const answer = uploadAvatarResponse.parse(response.json());
    expect(answer.avatar).toMatch(new RegExp(`^/api/user/avatar/${String(user.user_id)}/[0-9a-f]{64}$`));
    expect(answer.user.avatar).toBe(answer.avatar);
    expect(sessionResponse.parse((await browser.get('/api/session')).json()).user?.avatar).toBe(answer.avatar);

    const served = await browser.get(answer.avatar);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(served.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(served.rawPayload.includes('exif-secret-marker')).toBe(false);
    const metadata = await sharp(served.rawPayload).metadata();
    expect({ format: metadata.format, width: metadata.width, height: metadata.height, exif: metadata.exif }).toEqual({
      format: 'jpeg',
      width: 512,
      height: 384,
      exif: undefined,
    });
    const stored = await subject.database.db
      .selectFrom('user_avatars')
      .select('content')
      .where('user_id', '=', user.user_id)
      .executeTakeFirstOrThrow();
    expect(served.rawPayload.equals(stored.content)).toBe(true);
  });

  it('replaces the avatar: a new URL, and the old one no longer answers', async () => {
    const { user, browser } = await signedInUser(subject);
    const first = uploadAvatarResponse.parse(
      (await uploadAvatar(browser, user.user_id, { name: 'a.jpg', bytes: await jpegWithExif(40, 40) })).json(),
    ).avatar;
    const second = uploadAvatarResponse.parse(
      (await uploadAvatar(browser, user.user_id, { name: 'b.jpeg', bytes: await jpegWithExif(60, 30) })).json(),
    ).avatar;
    expect(second).not.toBe(first);
    expect((await browser.get(first)).statusCode).toBe(404);
    expect((await browser.get(second)).statusCode).toBe(200);
  });

  it('takes a file above the JSON body limit (1 MB) up to its own 2 MB', async () => {
    const { user, browser } = await signedInUser(subject);
    const big = await noiseJpeg(900);
    expect(big.length).toBeGreaterThan(1024 * 1024);
    expect(big.length).toBeLessThanOrEqual(2 * 1024 * 1024);
    expect((await uploadAvatar(browser, user.user_id, { name: 'big.jpg', bytes: big })).statusCode).toBe(200);
  });

  it.each([
    ['PNG bytes named .jpg', async () => ({ name: 'photo.jpg', bytes: await png(20, 20), type: 'image/jpeg' })],
    [
      'text named .jpg',
      () =>
        Promise.resolve({ name: 'photo.jpg', bytes: Buffer.from('just some text, not an image'), type: 'image/jpeg' }),
    ],
    [
      'a JPEG start and then junk',
      () => Promise.resolve({ name: 'photo.jpg', bytes: fakeJpeg(2000), type: 'image/jpeg' }),
    ],
    [
      'a real JPEG named .png',
      async () => ({ name: 'photo.png', bytes: await jpegWithExif(20, 20), type: 'image/png' }),
    ],
  ])('refuses %s with 400 and stores nothing', async (_case, file) => {
    const { user, browser } = await signedInUser(subject);
    const response = await uploadAvatar(browser, user.user_id, await file());
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toEqual([{ code: 4003, field: 'file', message: 'Please select a .jpg or .jpeg image' }]);
    await expectNoAvatar(user.user_id);
  });

  it('refuses a form without a file with 400 "Please select File"', async () => {
    const { user, browser } = await signedInUser(subject);
    const response = await uploadAvatar(browser, user.user_id);
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toEqual([{ code: 4215, field: 'file', message: 'Please select File' }]);
  });

  it('refuses a file over 2 MB with 413 and stores nothing', async () => {
    const { user, browser } = await signedInUser(subject);
    const response = await uploadAvatar(browser, user.user_id, {
      name: 'huge.jpg',
      bytes: fakeJpeg(2 * 1024 * 1024 + 1),
    });
    expect(response.statusCode).toBe(413);
    expect(errorsOf(response)).toEqual([
      { code: 41300, field: 'file', message: 'Please select a File of at most 2 MB' },
    ]);
    await expectNoAvatar(user.user_id);
  });

  it.each([
    ['JSON', JSON.stringify({ user_id: 1 }), 'application/json'],
    ['plain text', 'user_id=1', 'text/plain'],
    ['a url-encoded form', 'user_id=1', 'application/x-www-form-urlencoded'],
  ])('refuses %s with 415', async (_case, payload, contentType) => {
    const { browser } = await signedInUser(subject);
    const response = await postRaw(browser, URL, payload, contentType);
    expect(response.statusCode).toBe(415);
    expect(errorsOf(response)[0]?.code).toBe(41500);
  });

  it('refuses a multipart body that is not one (no boundary, broken parts) with a 4xx envelope', async () => {
    const { browser } = await signedInUser(subject);
    for (const [payload, contentType] of [
      ['garbage', 'multipart/form-data'],
      ['--x\r\nContent-Disposition: form-data; name="user_id"\r\n\r\n1', 'multipart/form-data; boundary=x'],
    ] as const) {
      const response = await postRaw(browser, URL, payload, contentType);
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect(errorsOf(response).length).toBeGreaterThan(0);
    }
  });

  it.each([
    ['an unknown field', { junk: 'x' }, {}],
    ['an over-long field', { junk: 'x'.repeat(300) }, {}],
    ['a second file', {}, { other: { name: 'b.jpg', bytes: Buffer.from([0xff, 0xd8, 0xff]) } }],
  ])(
    'refuses %s with a 4xx envelope and stores nothing',
    async (_case, extra: Record<string, string>, files: Record<string, Upload>) => {
      const { user, browser } = await signedInUser(subject);
      const response = await postForm(
        browser,
        URL,
        { user_id: String(user.user_id), ...extra },
        { file: { name: 'a.jpg', bytes: await jpegWithExif(20, 20) }, ...files },
      );
      expect([400, 413]).toContain(response.statusCode);
      expect(errorsOf(response).length).toBeGreaterThan(0);
      await expectNoAvatar(user.user_id);
    },
  );

  it.each([['abc'], [''], ['0'], ['1.5']])('refuses user_id %j with 400', async (userId) => {
    const { user, browser } = await signedInUser(subject);
    const response = await postForm(
      browser,
      URL,
      { user_id: userId },
      { file: { name: 'a.jpg', bytes: await jpegWithExif(20, 20) } },
    );
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toContainEqual(expect.objectContaining({ field: 'user_id' }));
    await expectNoAvatar(user.user_id);
  });

  it('refuses a signed-out caller with 401', async () => {
    const browser = await subject.browser();
    const response = await uploadAvatar(browser, 1, { name: 'a.jpg', bytes: await jpegWithExif(20, 20) });
    expect(response.statusCode).toBe(401);
    expect(errorsOf(response)[0]?.code).toBe(40100);
  });

  it('refuses a POST without the CSRF token with 403 and stores nothing', async () => {
    const { user, browser } = await signedInUser(subject);
    const response = await postForm(
      browser,
      URL,
      { user_id: String(user.user_id) },
      { file: { name: 'a.jpg', bytes: await jpegWithExif(20, 20) } },
      { 'x-csrf-token': '' },
    );
    expect(response.statusCode).toBe(403);
    await expectNoAvatar(user.user_id);
  });

  it("answers another user's id with 404 and stores nothing for either", async () => {
    const victim = await signedInUser(subject);
    const { user, browser } = await signedInUser(subject);
    const response = await uploadAvatar(browser, victim.user.user_id, {
      name: 'a.jpg',
      bytes: await jpegWithExif(20, 20),
    });
    expect(response.statusCode).toBe(404);
    expect(errorsOf(response)[0]?.code).toBe(2501);
    await expectNoAvatar(victim.user.user_id);
    await expectNoAvatar(user.user_id);
  });
});

describe('multipart outside the upload routes', () => {
  it('is refused with 415: the multipart parser is registered for the uploads only', async () => {
    const { user, browser } = await signedInUser(subject);
    const response = await postForm(browser, '/api/user/update-user', { user_id: String(user.user_id) });
    expect(response.statusCode).toBe(415);
  });
});

describe('GET /api/user/avatar/:userId/:sha256', () => {
  it('needs a signed-in caller, and answers an unknown version with 404', async () => {
    const { user, browser } = await signedInUser(subject);
    const avatar = uploadAvatarResponse.parse(
      (await uploadAvatar(browser, user.user_id, { name: 'a.jpg', bytes: await jpegWithExif(20, 20) })).json(),
    ).avatar;
    const other = await signedInUser(subject);
    expect((await other.browser.get(avatar)).statusCode).toBe(200);
    expect((await (await subject.browser()).get(avatar)).statusCode).toBe(401);
    expect((await browser.get(`/api/user/avatar/${String(user.user_id)}/${'0'.repeat(64)}`)).statusCode).toBe(404);
    expect((await browser.get(`/api/user/avatar/${String(user.user_id)}/not-a-hash`)).statusCode).toBe(400);
  });
});
