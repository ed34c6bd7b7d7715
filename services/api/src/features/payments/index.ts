/**
 * Payments: how a request moves money. A route names whose wallets it acts
 * on and whom it pays, runs its ledger command under a transaction id its Idempotency-Key
 * makes exactly once, and shows the transaction as its caller sees it.
 */
export {
  counterpartiesOf,
  merchantParty,
  presentOutcome,
  presentTransaction,
  presentTransactions,
  userParty,
} from './history-rows.ts';
export {
  idempotencyKeyOf,
  isIdempotentReplay,
  markIdempotentReplay,
  moveMoney,
  requestFingerprint,
  runLedgerCommand,
  transactionIdFor,
} from './money-movement.ts';
export { merchantPayee, payeePayment, personPayee, type Payee } from './payee-payment.ts';
export { transactionRecordOf, type SaleReturns } from './transaction-view.ts';
export { sessionWalletOwner, walletOwnerOfSession } from './wallet-owner.ts';
