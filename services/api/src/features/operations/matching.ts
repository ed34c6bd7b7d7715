import {
  errorCatalogue,
  errorCodes,
  type ApiErrorItem,
  type ClearDepositRequest,
  type PendingDeposit,
} from '@peeks/contracts';
import { formatMinorUnits } from '@peeks/ledger';

/** Reference memos as people copy them from a bank's notice: case and spacing are not part of them. */
const normalReference = (reference: string) => reference.replace(/\s+/g, '').toUpperCase();

/**
 * What does not match between a pending deposit and the transfer the
 * operator received for it: the amount and currency, and the reference
 * memo. Empty when the transfer is the one the deposit expects.
 */
export function depositMismatches(
  deposit: Pick<PendingDeposit, 'payment' | 'reference'>,
  received: Omit<ClearDepositRequest, 'tx_id'>,
): ApiErrorItem[] {
  const problems: ApiErrorItem[] = [];
  const { payment } = deposit;
  if (received.amount_received !== payment.amount || received.currency !== payment.currency) {
    problems.push({
      code: errorCodes.depositAmountMismatch,
      field: 'amount_received',
      message: `${errorCatalogue[errorCodes.depositAmountMismatch]}: received ${formatMinorUnits(received.amount_received, received.currency)} ${received.currency}, the deposit expects ${formatMinorUnits(payment.amount, payment.currency)} ${payment.currency}`,
    });
  }
  if (deposit.reference === null || normalReference(received.reference) !== normalReference(deposit.reference)) {
    problems.push({
      code: errorCodes.depositReferenceMismatch,
      field: 'reference',
      message: `${errorCatalogue[errorCodes.depositReferenceMismatch]}: received "${received.reference}", the deposit's is "${deposit.reference ?? ''}"`,
    });
  }
  return problems;
}
