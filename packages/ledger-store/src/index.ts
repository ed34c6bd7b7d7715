export { executeLedgerCommand } from './execute.ts';
export {
  DEFAULT_QUEUE_LIMIT,
  groupCommitContention,
  groupCommitCounts,
  LedgerQueueFull,
  ledgerQueueCounts,
  limitLedgerQueue,
  WALLET_CHANGES_CHANNEL,
  walletChangeFollower,
} from './group-commit.ts';
export { newCoinSerial } from './decide.ts';
export type { LedgerJob, LedgerJobs, LedgerOutcome, LedgerSettings } from './types.ts';
export { projectTransactionEvent, projectWalletEvent, transactionRow } from './inline-projection.ts';
export { loadTransaction, requestedPayoutOf } from './transactions.ts';
export { closeWallet, lockWallets, openWallets, walletStateOf } from './wallets.ts';
export { coinsOf, coinTrail, maturingCoinsOf, transactionAudit, walletsOf, type CoinTrailStep } from './queries.ts';
export { platformBalances } from './platform-balances.ts';
export {
  inlineTables,
  verifyLedger,
  type LedgerReport,
  type TableDifference,
  type VerificationProgress,
} from './verify.ts';
export { describeLedgerReport } from './report.ts';
export * from './log/index.ts';
