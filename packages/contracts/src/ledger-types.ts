import type { LedgerType } from '@peeks/ledger/words';

/**
 * The ledger's entry types and the labels the spec gives them (§4, "Ledger type
 * labels"). An unknown type is shown as its raw code.
 */
export const ledgerTypeLabels = {
  FEE_PLATFORM: 'Platform Fee',
  P2P_RCVD: 'P2P Received',
  P2P_SENT: 'P2P Sent',
  TIPS_RVCD: 'Received',
  TIPS_USER_RVCD: 'Received From User',
  TIPS_SENT: 'Sent',
  TIPS_USER_SENT: 'Sent User',
  BONUS: 'bonus',
  DEP_CON: 'Coin Deposit',
  DEP_IAP: 'Deposit',
  DEP_PAYPAL: 'Deposit (PayPal)',
  DEP_CC: 'Credit Card Deposit',
  ACCT_TO_ACCT: 'Account to Account Transfer',
  PURCHASE: 'PURCHASE',
  PURCHASE_COINS: 'Coin Purchase',
  PURCHASE_IMP: 'Impression Purchase',
  PURCHASE_OFFER: 'Offset Purchase',
  PURCHASE_SUB: 'Subscription Purchase',
  WITHDRAW: 'WITHDRAW',
  SETTLE_SEND: 'SETTLE_SEND',
  SETTLE_RCV: 'SETTLE_RCV',
  CORR: 'Correction',
  // Added by the platform: a sale given back by its merchant.
  RETURN: 'Return',
} as const satisfies Record<LedgerType, string>;

export function ledgerTypeLabel(code: string): string {
  return code in ledgerTypeLabels ? ledgerTypeLabels[code as LedgerType] : code;
}
