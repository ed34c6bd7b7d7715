import type { SessionUser } from '@peeks/contracts';
import { render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import { routes } from '../app/routes.tsx';
import { session } from '../features/session/session-store.ts';

/**
 * Component tests talk to a stand-in for the API at the fetch boundary: each
 * handler answers one "METHOD /api/path" with an envelope, as the server
 * would; every call is recorded so a test can check what was sent.
 */
export interface Answer {
  status?: number;
  body: unknown;
}
export type Handler = (body: unknown, url: URL) => Answer | Promise<Answer>;

export interface Call {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

export const ok = (fields: Record<string, unknown> = {}): Answer => ({ body: { response: 'success', ...fields } });
export const refused = (status: number, errors: { code: number; field?: string; message: string }[]): Answer => ({
  status,
  body: { response: 'error', message: errors[0]?.message ?? 'error', errors },
});

/** An answer the test lets go when it chooses, to see what shows while a call runs. */
export function held() {
  let release: (answer: Answer) => void = () => undefined;
  const answer = new Promise<Answer>((resolve) => {
    release = resolve;
  });
  return { answer, release };
}

/**
 * Stands in for the browser's WebSocket to /api/live: opens at once, and
 * `push` delivers a message to every open socket, as the server would after a
 * commit.
 */
export class FakeLiveSocket {
  static open: FakeLiveSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;

  constructor() {
    FakeLiveSocket.open.push(this);
    queueMicrotask(() => this.onopen?.());
  }

  static push(message: unknown) {
    for (const socket of FakeLiveSocket.open) socket.onmessage?.({ data: JSON.stringify(message) });
  }

  close() {
    FakeLiveSocket.open = FakeLiveSocket.open.filter((socket) => socket !== this);
  }
}

export function fakeApi(handlers: Record<string, Handler> = {}) {
  const calls: Call[] = [];
  FakeLiveSocket.open = [];
  vi.stubGlobal('WebSocket', FakeLiveSocket);
  const all: Record<string, Handler> = {
    'GET /api/session': () => ok({ user: null, csrfToken: 'csrf-anonymous' }),
    ...handlers,
  };
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const method = init.method ?? 'GET';
    const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path: url.pathname, body, headers: { ...(init.headers as Record<string, string>) } });
    const handler = all[`${method} ${url.pathname}`];
    const answer = handler ? await handler(body, url) : refused(404, [{ code: 40400, message: 'Not found' }]);
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  return {
    calls,
    handlers: all,
    sent: (method: string, path: string) => calls.filter((call) => call.method === method && call.path === path),
  };
}

/** Renders the whole app (every route, the shell) at `path`, as the browser would open it. */
export function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const user = userEvent.setup();
  const view = render(<RouterProvider router={router} />);
  return { router, user, ...view };
}

/** Starts each test logged out with no answer from the server yet. */
export function resetSession() {
  session.status = 'unknown';
  session.user = null;
  session.merchant = null;
}

export function sessionUser(overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    user_id: 7,
    guser_id: '0b8f5a56-4f63-4a53-9d0c-9b4a1c1f2e11',
    username: 'anne_tremblay',
    email: 'anne@example.com',
    fullname: 'Anne Tremblay',
    prefix: null,
    name_first: 'Anne',
    name_last: 'Tremblay',
    phone_region: null,
    avatar: null,
    birthday: '15-06-1990',
    gender: null,
    phone: null,
    city: 'Ottawa',
    province: 'ON',
    country: 'CA',
    currency: 'CAD',
    description: null,
    followers: 0,
    following: 0,
    account_status: 'active',
    is_banned: false,
    role: 'user',
    user_type: 'personal',
    terms_accepted: true,
    perms: ['UPDATE_USER'],
    merchant_id: null,
    merchants: {},
    creation_time: '2026-01-01T00:00:00.000Z',
    last_update: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/**
 * The toast showing `text`, in the list people see (the toasts' region);
 * the live region that says it (role status) holds the same words, hidden.
 */
export async function findToast(text: string): Promise<HTMLElement> {
  // hidden: a modal dialog hides the page behind, toasts too, from the accessibility tree (the live region stays).
  return within(await screen.findByRole('region', { name: 'Notifications (F8)', hidden: true })).findByText(text);
}
