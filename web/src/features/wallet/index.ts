/** The wallet's public surface: the balance store other screens read and refresh, and its live connection. */
export { connectLive, forgetWallet, loadBalance, onLiveMessage, wallet, type WalletState } from './wallet-store.ts';
