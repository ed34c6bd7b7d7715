import { liveMessage, type LiveMessage } from '@peeks/contracts';
import WebSocket from 'ws';
import { SESSION_COOKIE } from '../plugins/sessions.ts';
import type { SignedIn } from './merchants.ts';

/** A live socket and everything it has been sent; `next` waits for the first unseen message that matches. */
export class LiveClient {
  readonly socket: WebSocket;
  readonly messages: LiveMessage[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  #seen = 0;
  #wake: (() => void) | null = null;

  constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('message', (data: Buffer) => {
      this.messages.push(liveMessage.parse(JSON.parse(data.toString())));
      this.#wake?.();
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
      }),
    );
  }

  // A bound for a message that must come, not a speed claim: test runs share a loaded machine.
  async next(matches: (message: LiveMessage) => boolean = () => true, timeoutMs = 10_000): Promise<LiveMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.messages.findIndex((message, at) => at >= this.#seen && matches(message));
      if (index >= 0) {
        this.#seen = index + 1;
        return this.messages[index] as LiveMessage;
      }
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `no matching live message within ${String(timeoutMs)} ms; got ${JSON.stringify(this.messages.slice(this.#seen))}`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }
}

export function openLive(
  headers: Record<string, string>,
  url: string,
  { autoPong = true } = {},
): Promise<LiveClient | { refused: number }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers, autoPong });
    const client = new LiveClient(socket);
    socket.once('open', () => {
      resolve(client);
    });
    socket.once('unexpected-response', (_request, response) => {
      resolve({ refused: response.statusCode ?? 0 });
      socket.terminate();
    });
    socket.once('error', reject);
  });
}

/** `who`'s live socket on the app listening at `base` (host:port). */
export async function connectLive(base: string, who: SignedIn, origin = `http://${base}`): Promise<LiveClient> {
  const client = await openLive(
    { cookie: `${SESSION_COOKIE}=${who.browser.cookie ?? ''}`, origin },
    `ws://${base}/api/live`,
  );
  if (!(client instanceof LiveClient)) throw new Error(`refused with ${String(client.refused)}`);
  return client;
}
