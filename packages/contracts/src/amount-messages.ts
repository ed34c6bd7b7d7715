import { say } from './fields.ts';

/**
 * The texts of the spec's amount rules (§5, "Amounts"), shared by every form that takes
 * an amount. `label` is the field's word in them: "amount" for every amount
 * the spec names, "price" or "total" on a checkout cart.
 */
export const amountMessages = {
  missing: (label = 'amount') => say.enter(label),
  invalid: (label = 'amount') => say.valid(label),
  atLeast: (chars: number, label = 'amount') => `Please enter at least ${chars} characters ${label}`,
  atMost: (chars: number, label = 'amount') => `Please enter at most ${chars} characters ${label}`,
  // The spec's words with its misspellings mended ('should be greater than 1', 'should be less than 500').
  above: (max: number, label = 'amount') => `Please enter ${label} should be less than ${max}`,
  below: (min: number, label = 'amount') => `Please enter ${label} should be greater than ${min}`,
};
