import type { PaymentMethod } from '@peeks/contracts';

/** A stored card as the list call returns it. */
export function storedCard(overrides: Partial<PaymentMethod> = {}): PaymentMethod {
  return {
    payment_method_id: 11,
    paymentMethodId: 11,
    type: 'CC',
    state: 'E',
    validated: 'V',
    entry_date: '2026-11-02T10:00:00.000Z',
    is_default: true,
    selected: true,
    brand: 'visa',
    number: '************4242',
    icon: 'visa',
    billing_address: {},
    shipping_address: null,
    type_specific: {
      card_brand: 'visa',
      card_mask: '************4242',
      card_expiry: { year: 2029, month: 8 },
      cardholder_name: 'Anne Tremblay',
      token_type: 'sandbox',
    },
    ...overrides,
  };
}
