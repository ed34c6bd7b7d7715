/** The texts of the spec's amount rules (§5, "Amounts"), spelling and all ('grater' is the spec's), shared by every form that takes an amount. */
export const amountMessages = {
  missing: 'Please enter amount',
  invalid: 'Please enter valid amount',
  atLeast: (chars: number) => `Please enter at least ${chars} characters amount`,
  atMost: (chars: number) => `Please enter at most ${chars} characters amount`,
  above: (max: number) => `Please enter amount should be less ${max}`,
  below: (min: number) => `Please enter amount should be grater ${min}`,
};

