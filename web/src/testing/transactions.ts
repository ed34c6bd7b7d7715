import type { TransactionView } from '@peeks/contracts';

/**
 * A transaction as the API answers it: a completed transfer of 300.00 coins
 * out of user 7's wallet, every other field empty. Tests name only what
 * their case is about.
 */
export function transactionView(overrides: Partial<TransactionView> = {}): TransactionView {
  return {
    tx_id: 'tx_1',
    entry_date: '2026-11-21T20:00:00.000Z',
    return_date: null,
    user_id: 7,
    merchant_id: null,
    state: 'completed',
    type: 'transfer',
    tx_class: 'FundsTransferred',
    merchant_batch_id: null,
    billing_address: null,
    shipping_address: null,
    debit_credit: 'D',
    amount: 30_000,
    fee: 0,
    currency: 'CON',
    terminal_id: null,
    invoice_no: null,
    custom_1: null,
    error_code: null,
    fi_response_code: null,
    fi_response_text: null,
    parent_tx_id: null,
    ip_address: null,
    refunded: false,
    cart: [],
    payment_method_type: null,
    payment_method: null,
    customer_Name: null,
    reference: null,
    hold_amount: null,
    hold_release_at: null,
    wallet_change: -30_000,
    funding: null,
    counterparty: null,
    quote: null,
    partially_refunded: false,
    refunded_amount: 0,
    refundable_amount: 0,
    ...overrides,
  };
}
