import { randomBytes } from 'node:crypto';
import { errorEnvelope, signedInResponse, type SessionUser } from '@peeks/contracts';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { TestApp, TestBrowser } from './app.ts';
import { SESSION_COOKIE } from '../plugins/sessions.ts';
import { businessSignUp, personalSignUp } from './accounts.ts';

export interface Upload {
  name: string;
  bytes: Uint8Array;
  type?: string;
}

/** A multipart/form-data body exactly as a browser's FormData sends it. */
export async function multipartBody(
  fields: Record<string, string>,
  files: Record<string, Upload> = {},
): Promise<{ payload: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, file] of Object.entries(files))
    form.append(
      name,
      new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    );
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type') ?? '' };
}

/** POSTs a raw body with the browser's cookie and CSRF token; `headers` replace its own. */
export function postRaw(
  browser: TestBrowser,
  url: string,
  payload: Buffer | string,
  contentType: string,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return browser.app.inject({
    method: 'POST',
    url,
    payload,
    headers: {
      ...(browser.cookie === undefined ? {} : { cookie: `${SESSION_COOKIE}=${browser.cookie}` }),
      ...(browser.csrfToken === undefined ? {} : { 'x-csrf-token': browser.csrfToken }),
      'content-type': contentType,
      ...headers,
    },
  });
}

export async function postForm(
  browser: TestBrowser,
  url: string,
  fields: Record<string, string>,
  files: Record<string, Upload> = {},
  headers: Record<string, string> = {},
) {
  const { payload, contentType } = await multipartBody(fields, files);
  return postRaw(browser, url, payload, contentType, headers);
}

/** A registered, signed-in user (a merchant's with `business`) in its own browser. */
export async function signedInUser(
  subject: TestApp,
  kind: 'personal' | 'business' = 'personal',
): Promise<{ user: SessionUser; browser: TestBrowser }> {
  const browser = await subject.browser();
  const registered =
    kind === 'personal'
      ? await browser.post('/api/register/personal', personalSignUp())
      : await browser.post('/api/register/business', businessSignUp());
  expect(registered.statusCode).toBe(200);
  return { user: signedInResponse.parse(registered.json()).user, browser };
}

export const errorsOf = (response: { json: () => unknown }) => errorEnvelope.parse(response.json()).errors;

/** A real photo-like JPEG carrying EXIF that must not survive the upload. */
export const jpegWithExif = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#3a6ea5' } })
    .jpeg()
    .withExif({ IFD0: { Copyright: 'exif-secret-marker' } })
    .toBuffer();

export const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: '#ffcc00' } })
    .png()
    .toBuffer();

/** A JPEG of random pixels: it does not compress, so its size follows its dimensions. */
export function noiseJpeg(side: number): Promise<Buffer> {
  return sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .jpeg({ quality: 100 })
    .toBuffer();
}

/** Bytes that start like a JPEG and are nothing else. */
export const fakeJpeg = (size: number) =>
  Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(size - 4, 0x41)]);
