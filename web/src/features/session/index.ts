/** The session's public surface: who is signed in, and the actions other features may take on it. */
export {
  isMerchant,
  loadSession,
  logIn,
  session,
  signedIn,
  switchMerchant,
  type SessionState,
} from './session-store.ts';
