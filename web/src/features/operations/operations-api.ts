import {
  banDecisionResponse,
  banUserResponse,
  bitcoinDepositsResponse,
  coinTrailResponse,
  correctBalanceResponse,
  correctionDecisionResponse,
  eventLogResponse,
  ledgerLogStatusResponse,
  ledgerVerificationResponse,
  ledgerVerificationStartResponse,
  operationResponse,
  operationsOverviewResponse,
  operatorAuditResponse,
  peopleResponse,
  pendingBansResponse,
  pendingCorrectionsResponse,
  pendingDepositsResponse,
  pendingWithdrawalsResponse,
  personResponse,
  platformBalancesResponse,
  resolveBitcoinDepositResponse,
} from '@peeks/contracts';
import { callApi } from '../../lib/api.ts';

/** The operations console's calls: each a finance operator's, each answer checked against its contract. */
export const operationsApi = {
  overview: () => callApi('/operations/overview', operationsOverviewResponse),
  ledgerLog: () => callApi('/operations/ledger-log', ledgerLogStatusResponse),
  platformBalances: () => callApi('/operations/platform-balances', platformBalancesResponse),
  verification: () => callApi('/operations/ledger-verify', ledgerVerificationResponse),
  startVerification: () => callApi('/operations/ledger-verify', ledgerVerificationStartResponse, { body: {} }),
  pendingDeposits: (query: Record<string, string | number>) =>
    callApi('/operations/deposits', pendingDepositsResponse, { query }),
  flaggedBitcoin: () =>
    callApi('/operations/bitcoin-deposits', bitcoinDepositsResponse, {
      query: { state: 'flagged', resolved: 'no', limit: 200 },
    }),
  clearDeposit: (body: unknown, idempotencyKey: string) =>
    callApi('/operations/clear-deposit', operationResponse, { body, idempotencyKey }),
  rejectDeposit: (body: unknown, idempotencyKey: string) =>
    callApi('/operations/reject-deposit', operationResponse, { body, idempotencyKey }),
  resolveBitcoin: (body: unknown, idempotencyKey: string) =>
    callApi('/operations/resolve-bitcoin-deposit', resolveBitcoinDepositResponse, { body, idempotencyKey }),
  pendingWithdrawals: () => callApi('/operations/withdrawals', pendingWithdrawalsResponse, { query: { limit: 200 } }),
  processWithdrawal: (body: unknown, idempotencyKey: string) =>
    callApi('/operations/process-withdrawal', operationResponse, { body, idempotencyKey }),
  failWithdrawal: (body: unknown, idempotencyKey: string) =>
    callApi('/operations/fail-withdrawal', operationResponse, { body, idempotencyKey }),
  /** Posted at once (`transaction`), or above the approval threshold waiting for another operator (`correction`). */
  correctBalance: (body: unknown, idempotencyKey: string) =>
    callApi('/operations/correct-balance', correctBalanceResponse, { body, idempotencyKey }),
  pendingCorrections: () => callApi('/operations/corrections', pendingCorrectionsResponse, { query: { limit: 200 } }),
  approveCorrection: (correctionId: string, idempotencyKey: string) =>
    callApi('/operations/approve-correction', correctionDecisionResponse, {
      body: { correction_id: correctionId },
      idempotencyKey,
    }),
  rejectCorrection: (body: { correction_id: string; reason: string }, idempotencyKey: string) =>
    callApi('/operations/reject-correction', correctionDecisionResponse, { body, idempotencyKey }),
  coinTrail: (serial: string) => callApi('/operations/coin-trail', coinTrailResponse, { query: { serial } }),
  events: (query: Record<string, string | number>) => callApi('/operations/events', eventLogResponse, { query }),
  people: (q: string) => callApi('/operations/people', peopleResponse, { query: { q } }),
  person: (userId: number) => callApi('/operations/person', personResponse, { query: { user_id: userId } }),
  revokeSession: (body: unknown) => callApi('/operations/revoke-session', personResponse, { body }),
  /** Banned at once (the person), or for a finance operator waiting for another operator (`ban`). */
  banUser: (body: unknown) => callApi('/operations/ban-user', banUserResponse, { body }),
  pendingBans: () => callApi('/operations/bans', pendingBansResponse, { query: { limit: 200 } }),
  approveBan: (banId: string, idempotencyKey: string) =>
    callApi('/operations/approve-ban', banDecisionResponse, { body: { ban_id: banId }, idempotencyKey }),
  rejectBan: (body: { ban_id: string; reason: string }, idempotencyKey: string) =>
    callApi('/operations/reject-ban', banDecisionResponse, { body, idempotencyKey }),
  unbanUser: (body: unknown) => callApi('/operations/unban-user', personResponse, { body }),
  audit: () => callApi('/operations/audit', operatorAuditResponse, { query: { limit: 20 } }),
};
