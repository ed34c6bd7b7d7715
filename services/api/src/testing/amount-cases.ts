import { errorCodes, type ErrorCode } from '@peeks/contracts';

/**
 * Amounts the Deposit dialog's forms refuse (§5 Amounts: required, digits
 * only, 1 to 5 characters, 1 to 500), each with the spec's text and its code.
 * 'Please enter at least 1 characters amount' cannot be reached with a
 * minimum of one character: an empty amount is 'Please enter amount'.
 */
export const amountCases: { body: Record<string, unknown>; message: string; code: ErrorCode }[] = [
  { body: {}, message: 'Please enter amount', code: errorCodes.requiredField },
  { body: { amount: null }, message: 'Please enter amount', code: errorCodes.requiredField },
  { body: { amount: '' }, message: 'Please enter amount', code: errorCodes.requiredField },
  { body: { amount: 'ten' }, message: 'Please enter valid amount', code: errorCodes.invalidArguments },
  { body: { amount: '25' }, message: 'Please enter valid amount', code: errorCodes.invalidArguments },
  { body: { amount: 12.5 }, message: 'Please enter valid amount', code: errorCodes.invalidArguments },
  { body: { amount: 123_456 }, message: 'Please enter at most 5 characters amount', code: errorCodes.invalidArguments },
  { body: { amount: 501 }, message: 'Please enter amount should be less than 500', code: errorCodes.amountAboveLimit },
  { body: { amount: 0 }, message: 'Please enter amount should be greater than 1', code: errorCodes.amountBelowMinimum },
  {
    body: { amount: -3 },
    message: 'Please enter amount should be greater than 1',
    code: errorCodes.amountBelowMinimum,
  },
];
