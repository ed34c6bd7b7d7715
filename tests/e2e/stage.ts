import { createServer } from 'node:http';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { openBrowser } from './browser.ts';
import type { Heard } from './journey.ts';
import { startPeeks, type PeeksServer } from './peeks-server.ts';

/** The widths the journeys photograph: a laptop, and a phone (spec: usable from 360 px). */
export const DESKTOP = { width: 1366, height: 900 } as const;
export const PHONE = { width: 390, height: 844 } as const;

export interface Stage {
  /** The app as npm start serves it on a fresh database of this file's own. */
  readonly server: PeeksServer;
  /** A page in a context of its own (its own cookies: its own person), at the given viewport. */
  page(viewport?: { width: number; height: number }, options?: BrowserContextOptions): Promise<Page>;
}

/**
 * One server and one Chromium for a whole test file, started together before
 * its first journey and stopped after its last: a new journey costs a browser
 * context (milliseconds), not a server, a database and a browser (seconds).
 * Every person gets a context of their own, so files and people stay apart.
 * `env` adds to the server's configuration (a journey's own setting).
 */
export function stage(env: NodeJS.ProcessEnv = {}): Stage {
  let server: PeeksServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startPeeks(env), openBrowser()]);
    // The first file of a run may build the web app first.
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  return {
    get server() {
      if (!server) throw new Error('the stage is set up in beforeAll; use it inside a test');
      return server;
    },
    async page(viewport = DESKTOP, options = {}) {
      if (!browser) throw new Error('the stage is set up in beforeAll; use it inside a test');
      const context = await browser.newContext({ locale: 'en-US', viewport, ...options });
      return context.newPage();
    },
  };
}

export interface WebhookReceiver {
  /** What it has heard so far, oldest first. */
  readonly heard: readonly Heard[];
  /** Its address on loopback with `path`, for a webhook's URL. */
  url(path: string): string;
}

/**
 * A merchant's webhook receiver on loopback for a whole test file, listening
 * before its first journey and closed after its last: it keeps every message
 * it hears and answers 204.
 */
export function webhookReceiver(): WebhookReceiver {
  // The receiver is on loopback: the server must allow private webhook hosts, as in development.
  process.env.WEBHOOK_ALLOW_PRIVATE = '1';
  const heard: Heard[] = [];
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      heard.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  beforeAll(() => new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve)));
  afterAll(() => new Promise((resolve) => receiver.close(resolve)));
  return {
    heard,
    url(path) {
      const { port } = receiver.address() as { port: number };
      return `http://127.0.0.1:${String(port)}${path}`;
    },
  };
}
