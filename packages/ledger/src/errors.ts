import { errorCatalogue, type errorCodes } from '@peeks/contracts';

export type LedgerErrorCode = (typeof errorCodes)[
  | 'invalidAmount'
  | 'amountNotPositive'
  | 'amountAboveLimit'
  | 'amountBelowMinimum'
  | 'requiredField'
  | 'walletNotFound'
  | 'transactionNotFound'
  | 'insufficientFunds'
  | 'fundsOnHold'
  | 'sendToSelf'
  | 'walletClosed'
  | 'currencyMismatch'
  | 'transactionStateInvalid'
  | 'walletNotEmpty'
  | 'returnExceedsSale'
  | 'saleNotReturnable'
  | 'paymentMethodWrongUse'];

/**
 * A command the ledger refuses: nothing was written. `code` is the error
 * catalogue's code, `message` its text, `detail` what exactly was wrong (for
 * logs and operators).
 */
export class LedgerRuleViolation extends Error {
  readonly code: LedgerErrorCode;
  readonly detail: string;
  constructor(code: LedgerErrorCode, detail: string) {
    super(errorCatalogue[code]);
    this.name = 'LedgerRuleViolation';
    this.code = code;
    this.detail = detail;
  }
}

export function refuse(code: LedgerErrorCode, detail: string): never {
  throw new LedgerRuleViolation(code, detail);
}
