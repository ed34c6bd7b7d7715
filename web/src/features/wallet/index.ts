/** The wallet's public surface: the balance other screens read and refresh, the live feed and its connection. */
export {
  connectLive,
  forgetWallet,
  loadBalance,
  onLiveMessage,
  primeBalance,
  refreshBalance,
  useBalance,
  wallet,
  walletKeys,
} from './wallet-store.ts';
