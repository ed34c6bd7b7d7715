import {
  emptySuccess,
  merchantLookupResponse,
  sessionResponse,
  signedInResponse,
  switchMerchantResponse,
  type LoginRequest,
  type MerchantInfo,
  type SessionUser,
} from '@peeks/contracts';
import { proxy } from 'valtio';
import { callApi, rememberCsrfToken } from '../../lib/api.ts';
import { cached, clearLocalStorage } from '../../lib/cache.ts';
import { queryClient } from '../../lib/query.ts';

/**
 * The session (spec §4): who is signed in, the merchant they act for, and
 * whether the server has answered yet. A module-level valtio proxy with the
 * actions beside it; screens read it with `useSnapshot(session)`.
 */
export interface SessionState {
  /** 'unknown' until the first answer of GET /api/session (the cache may fill `user` before). */
  status: 'unknown' | 'known';
  user: SessionUser | null;
  merchant: MerchantInfo | null;
}

interface CachedSession {
  user: SessionUser;
  merchant: MerchantInfo | null;
}

const cache = cached<CachedSession>('peeks.session');
const fromCache = cache.read();

export const session = proxy<SessionState>({
  status: 'unknown',
  user: fromCache?.user ?? null,
  merchant: fromCache?.merchant ?? null,
});

/** A user is a merchant when merchant_id is set (spec §6). */
export const isMerchant = (user: { merchant_id: number | null } | null) => user?.merchant_id != null;

/**
 * Fresh data replaces the cache (spec §4: "the cache is cleared when fresh data loads").
 * `known` runs after what was read for someone else is forgotten and before the screens render for this user.
 */
async function settle(user: SessionUser | null, known?: () => void) {
  const merchant = user?.merchant_id != null ? await lookUpMerchant(user.merchant_id) : null;
  const acting = (each: SessionUser | null) => `${each?.user_id ?? ''}:${each?.merchant_id ?? ''}`;
  // What was read for someone else (another user, or the merchant acted for before) is not shown again.
  if (acting(session.user) !== acting(user)) void queryClient.resetQueries();
  known?.();
  session.user = user;
  session.merchant = merchant;
  session.status = 'known';
  cache.clear();
  if (user) cache.write({ user, merchant });
}

/** With a merchant id, the merchant is looked up too; a failed lookup leaves it out rather than the user (spec §4). */
async function lookUpMerchant(merchantId: number): Promise<MerchantInfo | null> {
  try {
    return (await callApi('/user/merchant-lookup', merchantLookupResponse, { query: { id: merchantId } })).merchantInfo;
  } catch {
    return null;
  }
}

/** Asks the server who is signed in, and gets the CSRF token every later change needs. */
export async function loadSession() {
  try {
    const answer = await callApi('/session', sessionResponse);
    rememberCsrfToken(answer.csrfToken);
    await settle(answer.user);
  } catch {
    // A failed lookup leaves the user logged out (spec §4).
    await settle(null);
  }
}

/** The session the page came with (`acceptFirstSession`), if it came with one. */
let firstSession: Promise<void> | null = null;

/**
 * Takes the session the server put in the page as GET /api/session's answer,
 * when it reads as one. `known` (once it is in) runs when the session is
 * settled, before any screen renders for the user: the dashboard puts the
 * page's balance in then. Without it the page asks, as `openSession` does.
 * Gives the settling, or null when the page came with no session.
 */
export function acceptFirstSession(first: unknown, known?: Promise<() => void>): Promise<void> | null {
  const answer = sessionResponse.safeParse(first);
  if (!answer.success) return null;
  rememberCsrfToken(answer.data.csrfToken);
  const { user } = answer.data;
  firstSession = (known ?? Promise.resolve(undefined)).then(
    (then) => settle(user, then),
    () => settle(user),
  );
  return firstSession;
}

/** The page's first session: the one it came with (taken once), else asked for now. */
export function openSession(): Promise<void> {
  const first = firstSession;
  firstSession = null;
  return first ?? loadSession();
}

export async function logIn(credentials: LoginRequest) {
  const answer = await callApi('/login', signedInResponse, { body: credentials });
  rememberCsrfToken(answer.csrfToken);
  await settle(answer.user);
  return answer.user;
}

/** After a sign-up the new user is signed in: same answer as a login. */
export async function signedIn(answer: { user: SessionUser; csrfToken: string }) {
  rememberCsrfToken(answer.csrfToken);
  await settle(answer.user);
}

/** Logout clears all local storage and resets the user (spec §4), even when the call fails. */
export async function logOut() {
  try {
    await callApi('/logout', emptySuccess, { body: {} });
  } finally {
    clearLocalStorage();
    session.user = null;
    session.merchant = null;
    await loadSession();
  }
}

export async function switchMerchant(merchantId: number) {
  const answer = await callApi('/merchant/switch-merchant', switchMerchantResponse, {
    body: { merchant_id: merchantId },
  });
  await settle(answer.user);
}
