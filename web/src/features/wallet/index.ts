/** The wallet's public surface: the balance store other screens read and refresh, and its live connection. */
export { connectLive, forgetWallet, loadBalance, wallet, type WalletState } from './wallet-store.ts';
