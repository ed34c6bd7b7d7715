/** The wallet's public surface: the balance other screens read and refresh, the live feed and its connection. */
export {
  connectLive,
  forgetWallet,
  loadBalance,
  onLiveMessage,
  refreshBalance,
  useBalance,
  wallet,
  walletKeys,
} from './wallet-store.ts';
