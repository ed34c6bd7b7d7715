import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceResponse, sessionResponse } from '@peeks/contracts';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { signedUp, testAppOptions } from '../testing/merchants.ts';
import { FIRST_ANSWERS_ID } from './web-app.ts';

/** The web app's static files (web/public), which the build copies as they are into the root it serves. */
const PUBLIC = path.resolve(import.meta.dirname, '../../../../web/public');
const SCRIPT = `console.log(${JSON.stringify('the app '.repeat(200))});`;

const SCREENS = {
  'src/features/shell/DashboardLayout.tsx': { js: ['assets/DashboardLayout-1.js', 'assets/useQuery-2.js'], css: [] },
  'src/features/wallet/WalletPage.tsx': {
    js: ['assets/WalletPage-3.js', 'assets/useQuery-2.js'],
    css: ['assets/WalletPage-4.css'],
  },
  'src/features/wallet/index.ts': { js: ['assets/wallet-5.js'], css: [] },
  'src/features/agreements/PendingAgreement.tsx': { js: ['assets/PendingAgreement-6.js'], css: [] },
  'src/features/session/LoginPage.tsx': { js: ['assets/LoginPage-7.js', 'assets/form-8.js'], css: [] },
  'src/features/contacts/ContactsPage.tsx': { js: ['assets/ContactsPage-9.js'], css: [] },
};
const DASHBOARD_FILES = [
  ...SCREENS['src/features/shell/DashboardLayout.tsx'].js,
  ...SCREENS['src/features/wallet/WalletPage.tsx'].js,
  ...SCREENS['src/features/wallet/index.ts'].js,
  ...SCREENS['src/features/agreements/PendingAgreement.tsx'].js,
];

let subject: TestApp;
let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'peeks-web-'));
  await cp(PUBLIC, root, { recursive: true });
  await mkdir(path.join(root, 'assets'));
  await writeFile(
    path.join(root, 'index.html'),
    '<!doctype html><html><head><title>Peeks Wallet</title></head><body><div id="root"></div></body></html>',
  );
  // As the build writes it (web/screen-chunks.ts): each lazy module's files beyond the first load.
  await mkdir(path.join(root, '.vite'));
  await writeFile(path.join(root, '.vite', 'screen-chunks.json'), JSON.stringify(SCREENS));
  // As the build leaves a text asset: the file, and its brotli and gzip copies beside it.
  const script = path.join(root, 'assets', 'index-abc123.js');
  await writeFile(script, SCRIPT);
  await writeFile(`${script}.br`, brotliCompressSync(SCRIPT));
  await writeFile(`${script}.gz`, gzipSync(SCRIPT));
  subject = await createTestApp({ ...testAppOptions, webRoot: root });
});
const getAsset = (url: string, acceptEncoding?: string) =>
  subject.app.inject({
    method: 'GET',
    url,
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  });
afterAll(async () => {
  await subject.close();
  await rm(root, { recursive: true, force: true });
});

describe('web app serving', () => {
  it('serves index.html for the root and for client-side routes, never stored', async () => {
    for (const url of ['/', '/wallet', '/transfer-fund?gid=1&amt=5']) {
      const response = await subject.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers.vary).toContain('cookie');
      expect(response.body).toContain('Peeks Wallet');
    }
  });

  /** The JSON the page carries for its script, as the script reads it. */
  const firstAnswers = (html: string) => {
    const found = new RegExp(
      `<script type="application/json" id="${FIRST_ANSWERS_ID}">(.*?)</script><div id="root">`,
    ).exec(html);
    expect(found, 'the page carries its first answers before the mount point').not.toBeNull();
    return JSON.parse(found?.[1] ?? 'null') as { session: unknown; balance?: unknown };
  };

  it("gives a first visit's page a new session: its CSRF token inside, its cookie beside", async () => {
    const response = await subject.app.inject({ method: 'GET', url: '/login' });
    const answers = firstAnswers(response.body);
    const session = sessionResponse.parse(answers.session);
    expect(session.user).toBeNull();
    expect(answers.balance).toBeUndefined();
    const cookie = response.cookies.find((each) => each.name.endsWith('peeks_session'));
    expect(cookie?.value).toBeTruthy();
    // The session the cookie names is the one whose token the page holds.
    const asked = await subject.app.inject({
      method: 'GET',
      url: '/api/session',
      headers: { cookie: `${cookie?.name ?? ''}=${cookie?.value ?? ''}` },
    });
    expect(sessionResponse.parse(asked.json()).csrfToken).toBe(session.csrfToken);
  });

  it("puts a signed-in user's session and balance in the page, as their routes answer them", async () => {
    const someone = await signedUp(subject, 'personal');
    const page = await someone.browser.request('GET', '/', undefined, { 'accept-encoding': 'identity' });
    expect(page.headers['cache-control']).toBe('no-store');
    const answers = firstAnswers(page.body);
    expect(sessionResponse.parse(answers.session)).toEqual(
      sessionResponse.parse((await someone.browser.get('/api/session')).json()),
    );
    expect(balanceResponse.parse(answers.balance)).toEqual(
      balanceResponse.parse((await someone.browser.get('/api/account/balance')).json()),
    );
    expect(sessionResponse.parse(answers.session).user?.user_id).toBe(someone.user.user_id);
  });

  /** The files the page's head asks the browser to fetch ahead: module preloads, and stylesheets preloaded. */
  const preloaded = (html: string) => {
    const head = html.slice(0, html.indexOf('</head>'));
    return {
      modules: [...head.matchAll(/<link rel="modulepreload" fetchpriority="low" crossorigin href="\/([^"]+)">/g)].map(
        (each) => each[1],
      ),
      styles: [...head.matchAll(/<link rel="preload" as="style" crossorigin href="\/([^"]+)">/g)].map(
        (each) => each[1],
      ),
    };
  };

  it("lists the dashboard's chunks in a signed-in user's dashboard page, each once", async () => {
    const someone = await signedUp(subject, 'personal');
    const page = await someone.browser.request('GET', '/', undefined, { 'accept-encoding': 'identity' });
    const { modules, styles } = preloaded(page.body);
    expect(modules.toSorted()).toEqual([...new Set(DASHBOARD_FILES)].toSorted());
    expect(styles).toEqual(['assets/WalletPage-4.css']);
    expect(modules).not.toContain('assets/LoginPage-7.js');
  });

  it("lists the sign-in form's chunks for a guest, and none of the dashboard's", async () => {
    for (const url of ['/login', '/', '/login?next=1']) {
      const response = await subject.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
      const { modules, styles } = preloaded(response.body);
      expect(modules, url).toEqual(SCREENS['src/features/session/LoginPage.tsx'].js);
      expect(styles, url).toEqual([]);
      for (const file of DASHBOARD_FILES) expect(response.body, url).not.toContain(file);
    }
  });

  it('lists nothing ahead for a page whose chunks its script finds itself', async () => {
    const someone = await signedUp(subject, 'personal');
    const page = await someone.browser.request('GET', '/contacts', undefined, { 'accept-encoding': 'identity' });
    expect(preloaded(page.body)).toEqual({ modules: [], styles: [] });
  });

  it('does not serve the build map as a file', async () => {
    const response = await getAsset('/.vite/screen-chunks.json');
    expect(response.headers['content-type']).not.toContain('json');
  });

  it('escapes what a person typed, so it cannot close the script element', async () => {
    const someone = await signedUp(subject, 'personal');
    await subject.app.db
      .updateTable('users')
      .set({ fullname: '</script><script>alert(1)</script>' })
      .where('user_id', '=', someone.user.user_id)
      .execute();
    const page = await someone.browser.request('GET', '/wallet', undefined, { 'accept-encoding': 'identity' });
    expect(page.body).not.toContain('<script>alert(1)');
    expect(sessionResponse.parse(firstAnswers(page.body).session).user?.fullname).toBe(
      '</script><script>alert(1)</script>',
    );
  });

  it('sends the page brotli- or gzip-compressed to a browser that takes it', async () => {
    const br = await subject.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toContain(FIRST_ANSWERS_ID);
    const gzip = await subject.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toContain(FIRST_ANSWERS_ID);
  });

  it('serves a hashed asset brotli-compressed to a browser that takes brotli, cached for good', async () => {
    const response = await getAsset('/assets/index-abc123.js', 'gzip, deflate, br, zstd');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toContain('javascript');
    expect(response.headers.vary).toContain('accept-encoding');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
    expect(response.rawPayload.length).toBeLessThan(SCRIPT.length / 4);
  });

  it('serves it gzipped to a browser that takes gzip only', async () => {
    const response = await getAsset('/assets/index-abc123.js', 'gzip');
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('serves it as it is to a client that asks for no encoding', async () => {
    for (const acceptEncoding of [undefined, 'identity']) {
      const response = await getAsset('/assets/index-abc123.js', acceptEncoding);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers.vary).toContain('accept-encoding');
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.body).toBe(SCRIPT);
    }
  });

  it('gives no address to the compressed copies, and no page for an asset the build lacks', async () => {
    for (const url of ['/assets/index-abc123.js.br', '/assets/index-abc123.js.gz', '/assets/index-old456.js']) {
      const response = await getAsset(url, 'br');
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).not.toContain('text/html');
    }
  });

  it('answers /favicon.ico with the brand icon, not the page', async () => {
    const response = await getAsset('/favicon.ico');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^image\//);
    // An ICO file starts with reserved 0, type 1 (icon).
    expect([...response.rawPayload.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
    expect(response.rawPayload.equals(await readFile(path.join(PUBLIC, 'favicon.ico')))).toBe(true);
    const svg = await getAsset('/favicon.svg');
    expect(svg.headers['content-type']).toContain('image/svg+xml');
  });

  it('keeps unknown API routes as JSON 404s', async () => {
    const response = await subject.app.inject({ method: 'GET', url: '/api/wallet/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ response: 'error' });
  });
});
