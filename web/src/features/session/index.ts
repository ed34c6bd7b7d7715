/** The session's public surface: who is signed in, and the actions other features may take on it. */
export {
  acceptFirstSession,
  isMerchant,
  loadSession,
  logIn,
  openSession,
  session,
  signedIn,
  switchMerchant,
  type SessionState,
} from './session-store.ts';
