import { say } from './fields.ts';

/**
 * The texts of the spec's amount rules (§5, "Amounts"), verbatim ('grater'
 * included: the forms show exactly this), shared by every form that takes
 * an amount. `label` is the field's word in them: "amount" for every amount
 * the spec names, "price" or "total" on a checkout cart.
 */
export const amountMessages = {
  missing: (label = 'amount') => say.enter(label),
  invalid: (label = 'amount') => say.valid(label),
  atLeast: (chars: number, label = 'amount') => `Please enter at least ${chars} characters ${label}`,
  atMost: (chars: number, label = 'amount') => `Please enter at most ${chars} characters ${label}`,
  above: (max: number, label = 'amount') => `Please enter ${label} should be less ${max}`,
  below: (min: number, label = 'amount') => `Please enter ${label} should be grater ${min}`,
};
