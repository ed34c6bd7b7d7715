import type { BitcoinDepositView, PendingDeposit, PendingWithdrawal, TransactionView } from '@peeks/contracts';
import { fakeApi, ok, sessionUser } from '../../testing/app.tsx';
import { transactionView } from '../../testing/transactions.ts';

/** Test data for the console's component tests: as the operations API answers. */
const operator = sessionUser({ user_id: 1, username: 'demo_finance', role: 'finance' });

/** The API with a finance operator signed in, and the page's own answers. */
export const consoleApi = (handlers: Parameters<typeof fakeApi>[0] = {}) =>
  fakeApi({ 'GET /api/session': () => ok({ user: operator, csrfToken: 'csrf' }), ...handlers });

export const pendingDeposit = (overrides: Partial<PendingDeposit> = {}): PendingDeposit => ({
  tx_id: 'tx-interac-1',
  entry_date: '2026-11-25T09:00:00.000Z',
  expires_at: null,
  method: 'interac',
  reference: 'PKSDEMO1',
  payment: { amount: 50_00, currency: 'CAD' },
  coins: 50_00,
  owner_id: 'user-9',
  user_id: 9,
  username: 'demo_personal',
  email: 'personal@example.com',
  ...overrides,
});

export const bitcoinDeposit = (overrides: Partial<BitcoinDepositView> = {}): BitcoinDepositView => ({
  tx_id: 'tx-btc-1',
  state: 'flagged',
  ledger_state: 'pending',
  address: 'bcrt1qexampleaddress',
  amount_sats: 100_000,
  received_sats: 80_000,
  confirmed_sats: 80_000,
  payment_txids: ['ab'.repeat(32)],
  usd_cents: 60_00,
  coins: 60_00,
  flag: 'underpaid',
  flag_reason: 'Paid 80000 of 100000 sats',
  flagged_at: '2026-11-25T09:30:00.000Z',
  seen_at: '2026-11-25T09:20:00.000Z',
  created_at: '2026-11-25T09:00:00.000Z',
  expires_at: '2026-11-25T10:00:00.000Z',
  owner_id: 'user-9',
  user_id: 9,
  username: 'demo_personal',
  resolution: null,
  resolved_sats: null,
  resolved_by: null,
  resolved_at: null,
  credit_tx_id: null,
  refund_address: null,
  ...overrides,
});

export const pendingWithdrawal = (overrides: Partial<PendingWithdrawal> = {}): PendingWithdrawal => ({
  tx_id: 'tx-withdraw-1',
  entry_date: '2026-11-25T08:00:00.000Z',
  amount: 120_00,
  currency: 'CAD',
  owner_id: 'user-9',
  user_id: 9,
  merchant_id: null,
  destination: 'Bank account •••• 4321',
  payment_method: 'eft',
  ...overrides,
});

/** A ledger transaction as the wallet it concerns sees it: what the operator's calls answer. */
export const transaction = (txId: string, amount = 50_00): TransactionView =>
  transactionView({ tx_id: txId, amount, user_id: 9, type: 'deposit', debit_credit: 'C', currency: 'CAD' });
