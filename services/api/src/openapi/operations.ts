import { uploadAvatarFields, uploadDocumentFields } from '@peeks/contracts';
import type { z } from 'zod';

/**
 * What the OpenAPI document says of each operation that its route's own
 * schema cannot: a stable operationId, a summary, its feature (the tag: the
 * folder under features/), and the refusals its handler can give beyond the
 * ones every route of its kind can (see openapi.ts). A route the app serves
 * without an entry here fails the document (and its test), so none is added
 * undescribed.
 */

/** One tag per feature folder, with what the feature is for. */
export const featureTags = {
  accounts: 'Registration of personal and business accounts, and looking users and merchants up.',
  addresses: "The signed-in user's postal addresses.",
  agreements: 'The terms each user or merchant accepts.',
  'card-payments': 'Buying coins and paying by stored card, and withdrawals to a card or bank account.',
  'card-processor':
    'The sandbox card processor: the browser-facing tokenizer, and the platform-to-processor calls (credential, not session).',
  checkout: 'Merchant checkout sessions and paying them.',
  contacts: "The signed-in user's contacts.",
  credentials: 'PIN and security questions.',
  deposits: 'Deposits by e-mail transfer (Interac, Zelle) and by bitcoin.',
  health: 'Liveness of the API and its database.',
  'ledger-log':
    'The verifiable ledger log: signed checkpoints, inclusion and consistency proofs (RFC 9162, C2SP signed notes).',
  'merchant-space': "The merchant's dashboard, sales, returns, settlements and reports.",
  merchants: 'Merchant profile, terminals and categories.',
  operations: "The finance operators' console: deposits, withdrawals, corrections, audit.",
  'payment-methods': 'Stored cards and bank accounts.',
  profile: 'Profile, preferences and password.',
  recovery: 'Forgotten password: recovery e-mail, code and reset.',
  'send-fund': 'Sending money to another user or merchant.',
  sessions: 'Sign-in, sign-out, the session and its CSRF token.',
  uploads: 'Avatars and identity documents.',
  users: 'Finding recipients.',
  wallet: 'Balances, ledger, transactions, coins and live updates.',
  webhooks: 'Webhook endpoints, their deliveries and replays.',
} as const;

export type Feature = keyof typeof featureTags;

/** A refusal beyond the ones every route of its kind can give (400, 401, 403 CSRF, 429, 500). */
export type ExtraStatus = 401 | 403 | 404 | 409 | 422 | 503;

export interface OperationFacts {
  operationId: string;
  summary: string;
  tag: Feature;
  /** Statuses the handler answers beyond the route-wide ones. */
  errors?: readonly ExtraStatus[];
  /** The route honours an `Idempotency-Key` header (and answers 409 for a key reused for another request). */
  idempotent?: true;
  /** A longer note for the reference. */
  description?: string;
  /** An example of a valid JSON request body (checked against the schema by the lint). */
  example?: Record<string, unknown>;
  /** A multipart/form-data request: its text fields' schema, beside the `file`. */
  form?: z.ZodType;
  /** The 200 answer's media type when it is not JSON. */
  produces?: 'text/csv' | 'text/html' | 'image/*';
}

const o = (
  operationId: string,
  tag: Feature,
  summary: string,
  more: Omit<OperationFacts, 'operationId' | 'tag' | 'summary'> = {},
): OperationFacts => ({ operationId, tag, summary, ...more });

/** Money moved through the ledger: keyed, refused by its rules (422), turned away when it is busy (503). */
const money = { idempotent: true, errors: [404, 409, 422, 503] } as const;
/** A finance operator's step: keyed, on a record that may be gone or no longer pending. */
const operatorStep = { idempotent: true, errors: [404, 409, 422, 503] } as const;

/** Keyed by `METHOD path` as fastify knows the route (`:param`, not `{param}`). */
export const operations: Record<string, OperationFacts> = {
  'GET /api/health': o('getHealth', 'health', 'Check that the API and its database answer'),

  'POST /api/register/personal': o('registerPersonal', 'accounts', 'Register a personal account', { errors: [409] }),
  'POST /api/register/business': o('registerBusiness', 'accounts', 'Register a business account and its merchant', {
    errors: [404, 409],
  }),
  'GET /api/user/user-lookup': o('lookupUser', 'accounts', 'Get the signed-in user', { errors: [404] }),
  'GET /api/user/perm': o('getPermissions', 'accounts', "Get the signed-in user's permissions", { errors: [404] }),
  'GET /api/user/merchant-lookup': o('lookupMerchant', 'accounts', 'Get a merchant the user belongs to', {
    errors: [404],
  }),

  'GET /api/session': o('getSession', 'sessions', 'Get the session and its CSRF token, opening one if needed'),
  'POST /api/login': o('login', 'sessions', 'Sign in with username or e-mail and password', {
    errors: [401, 403],
    example: { username: 'demo_personal', password: 'Secret12' },
  }),
  'POST /api/logout': o('logout', 'sessions', 'Sign out'),
  'POST /api/merchant/switch-merchant': o('switchMerchant', 'sessions', 'Act as another merchant the user belongs to', {
    errors: [404],
  }),

  'POST /api/user/get-recovery-email': o('getRecoveryEmail', 'recovery', 'Show the masked recovery e-mail of a user', {
    errors: [404],
  }),
  'POST /api/user/send-recovery-code': o('sendRecoveryCode', 'recovery', 'E-mail a recovery code', { errors: [404] }),
  'POST /api/user/check-recovery-code': o('checkRecoveryCode', 'recovery', 'Check a recovery code', {
    errors: [404, 422],
  }),
  'POST /api/user/reset-password': o('resetPassword', 'recovery', 'Set a new password with a checked recovery code', {
    errors: [404, 422],
  }),

  'POST /api/user/change-password': o('changePassword', 'profile', 'Change the password', { errors: [422] }),
  'POST /api/user/update-user': o('updateUser', 'profile', "Update the signed-in user's profile", {
    errors: [409],
  }),
  'POST /api/user/get-user-prefs': o('getUserPreferences', 'profile', "Get the user's preferences"),
  'POST /api/user/user-config-update': o('updateUserPreferences', 'profile', "Update the user's preferences"),

  'GET /api/user/security-settings': o(
    'getSecuritySettings',
    'credentials',
    'Tell whether a PIN and questions are set',
  ),
  'GET /api/user/security-questions': o(
    'listSecurityQuestions',
    'credentials',
    'List the security questions to choose',
  ),
  'POST /api/user/set-pin': o('setPin', 'credentials', 'Set the PIN', { errors: [409, 422] }),
  'POST /api/user/change-pin': o('changePin', 'credentials', 'Change the PIN', { errors: [422] }),
  'POST /api/user/verify-pin': o('verifyPin', 'credentials', 'Check the PIN', { errors: [422] }),
  'POST /api/user/set-security-questions': o(
    'setSecurityQuestions',
    'credentials',
    'Choose and answer security questions',
    {
      errors: [422],
    },
  ),

  'POST /api/user/user-upload-avatar': o('uploadAvatar', 'uploads', 'Upload an avatar (multipart form)', {
    form: uploadAvatarFields,
  }),
  'GET /api/user/avatar/:userId/:sha256': o('getAvatar', 'uploads', "Get a user's avatar image", {
    errors: [404],
    produces: 'image/*',
  }),
  'POST /api/user/upload-document': o('uploadDocument', 'uploads', 'Upload an identity document (multipart form)', {
    form: uploadDocumentFields,
  }),
  'GET /api/user/document-list': o('listDocuments', 'uploads', "List the user's identity documents"),

  'GET /api/user/address-list': o('listAddresses', 'addresses', "List the user's addresses"),
  'POST /api/user/add-address': o('addAddress', 'addresses', 'Add an address'),
  'POST /api/user/update-address': o('updateAddress', 'addresses', 'Update an address', { errors: [404] }),
  'POST /api/user/delete-address': o('deleteAddress', 'addresses', 'Delete an address', { errors: [404] }),

  'GET /api/user/contact-list': o('listContacts', 'contacts', "List the user's contacts"),
  'GET /api/user/contact-lookup': o('lookupContact', 'contacts', 'Get one contact', { errors: [404] }),
  'POST /api/user/contact-create': o('createContact', 'contacts', 'Add a contact', { errors: [409] }),
  'POST /api/user/recipient-create': o(
    'createRecipient',
    'contacts',
    'Add a recipient with their banking details (Add A Recipient)',
    { errors: [409] },
  ),
  'POST /api/user/contact-update': o('updateContact', 'contacts', 'Update a contact', { errors: [404, 409] }),
  'POST /api/user/contact-delete': o('deleteContact', 'contacts', 'Delete a contact', { errors: [404] }),

  'GET /api/user/user-list': o('searchUsers', 'users', 'Search recipients by name, username, e-mail or phone'),
  'GET /api/user/recipient-lookup': o('lookupRecipient', 'users', 'Get one recipient', { errors: [404] }),

  'POST /api/merchant/update-merchant': o('updateMerchant', 'merchants', "Update the acting merchant's profile", {
    errors: [404],
  }),
  'GET /api/merchant-terminal/list': o('listTerminals', 'merchants', "List the acting merchant's terminals", {
    errors: [403],
  }),
  'POST /api/user/create-merchant-terminal': o('createTerminal', 'merchants', 'Add a terminal', { errors: [409] }),
  'POST /api/user/update-merchant-terminal': o('updateTerminal', 'merchants', 'Update a terminal', {
    errors: [404, 409],
  }),
  'POST /api/merchant-terminal/delete': o('deleteTerminal', 'merchants', 'Delete a terminal', { errors: [404] }),
  'GET /api/category': o('listCategories', 'merchants', 'List merchant categories'),
  'GET /api/category/subcategory': o('listSubcategories', 'merchants', "List a category's subcategories", {
    errors: [404],
  }),

  'GET /api/account/balance': o('getBalance', 'wallet', "Get the acting owner's balances per currency"),
  'POST /api/account/ledger': o('listLedgerEntries', 'wallet', 'List ledger entries'),
  'POST /api/account/ledger-details': o('getLedgerEntry', 'wallet', 'Get one ledger entry', { errors: [404] }),
  'POST /api/account/transactions': o('listTransactions', 'wallet', 'List transactions'),
  'POST /api/account/transaction-details': o('getTransaction', 'wallet', 'Get one transaction', { errors: [404] }),
  'POST /api/account/forex-lookup': o('lookupExchangeRate', 'wallet', 'Get the rate between two currencies'),
  'POST /api/account/quote': o('quoteConversion', 'wallet', 'Quote a conversion between coins and USD or CAD', {
    description:
      'The terms a conversion will use, for about a minute: a command naming the quote_id pays exactly these, or gets 409 with a fresh quote.',
    example: { from_currency: 'CAD', to_currency: 'CON', amount_out: 100_000 },
  }),
  'GET /api/wallet/list-coins': o('listCoins', 'wallet', "List the wallet's coin serials"),
  'GET /api/wallet/list-audit': o('listCoinAudit', 'wallet', "List the audit trail of the wallet's coins"),
  'GET /api/live': o('openLiveUpdates', 'wallet', 'Open the live updates WebSocket', {
    errors: [403],
    description:
      'A WebSocket (upgrade from GET, same origin only): balance on open, then activity, balance and deposit messages.',
  }),

  'GET /api/ledger/log-key': o('getLedgerLogKey', 'ledger-log', "Get the verifier key of the ledger log's checkpoints"),
  'GET /api/ledger/checkpoint': o(
    'getLedgerCheckpoint',
    'ledger-log',
    "Get the ledger log's newest signed checkpoint",
    {
      errors: [404],
    },
  ),
  'GET /api/ledger/proof/inclusion': o(
    'getLedgerInclusionProof',
    'ledger-log',
    "Prove one's own transaction is in the ledger log",
    {
      errors: [404, 422],
      description:
        "The leaf is the chain hash of the transaction's first event. Another person's transaction is 404; a finance operator may ask about any.",
    },
  ),
  'GET /api/ledger/proof/consistency': o(
    'getLedgerConsistencyProof',
    'ledger-log',
    'Prove the ledger log of one size extends the log of a smaller one',
    { errors: [422] },
  ),

  'POST /api/agreement/agreement-list': o('listAgreements', 'agreements', 'List the agreements to accept'),
  'GET /api/agreement/agreement-lookup': o('lookupAgreement', 'agreements', 'Get one agreement', { errors: [404] }),
  'POST /api/agreement/update-agreement': o('answerAgreement', 'agreements', 'Accept or decline an agreement', {
    errors: [404],
  }),

  'GET /api/sandbox/tokenizer': o(
    'getTokenizerPage',
    'card-processor',
    "The sandbox tokenizer's card entry page (HTML)",
    {
      produces: 'text/html',
    },
  ),
  'POST /api/sandbox/tokenize': o('tokenizeCard', 'card-processor', 'Turn a card number into a sandbox token'),
  'POST /api/sandbox/card-lookup': o('lookupCardToken', 'card-processor', 'Describe a tokenized card (platform only)', {
    errors: [404],
  }),
  'POST /api/sandbox/charges': o('chargeCard', 'card-processor', 'Charge a tokenized card (platform only)', {
    errors: [404, 409],
  }),
  'POST /api/sandbox/refunds': o('refundCharge', 'card-processor', 'Refund a charge in full (platform only)', {
    errors: [404],
  }),
  'POST /api/sandbox/partial-refunds': o(
    'refundChargePartly',
    'card-processor',
    'Refund part of a charge (platform only)',
    {
      errors: [404, 409, 422],
    },
  ),

  'GET /api/wallet/payment-provider-lookup': o('lookupPaymentProvider', 'payment-methods', 'Get a payment provider', {
    errors: [404],
  }),
  'POST /api/wallet/add-pay-method': o(
    'addPaymentMethod',
    'payment-methods',
    'Store a tokenized card or a bank account',
    {
      errors: [409],
    },
  ),
  'POST /api/account/pay-method': o('listPaymentMethods', 'payment-methods', 'List stored payment methods'),
  'POST /api/account/user-payment-method-update': o(
    'updatePaymentMethod',
    'payment-methods',
    'Update a stored payment method',
    {
      errors: [404],
    },
  ),
  'POST /api/account/user-payment-method-delete': o(
    'deletePaymentMethod',
    'payment-methods',
    'Delete a stored payment method',
    {
      errors: [404],
    },
  ),

  'POST /api/account/purchase': o('purchaseCoins', 'card-payments', 'Buy coins with a stored card', {
    ...money,
    example: { payment_method_id: 12, coin_amt: 50_000, currency: 'USD' },
  }),
  'POST /api/account/deposit-fund': o('depositByCard', 'card-payments', 'Add funds from a stored card', money),
  'POST /api/account/withdraw': o('withdraw', 'card-payments', 'Withdraw to a stored card or bank account', {
    ...money,
    example: { amount: 2_500, currency: 'CAD', paymentMethodId: 7, pin: '1234' },
  }),

  'POST /api/account/deposit-interac': o('depositByInterac', 'deposits', 'Announce an Interac e-mail transfer', {
    ...money,
    example: { amount: 50, currency: 'CAD' },
  }),
  'POST /api/account/deposit-zell': o('depositByZelle', 'deposits', 'Announce a Zelle transfer', money),
  'POST /api/account/get-bitcoin-info': o('quoteBitcoinDeposit', 'deposits', 'Quote a bitcoin deposit', {
    example: { amount: 250 },
  }),
  'POST /api/account/deposit-coins': o('depositBitcoin', 'deposits', 'Get an address for a quoted bitcoin deposit', {
    ...money,
    errors: [409, 422, 503],
  }),
  'GET /api/account/deposits': o('listDeposits', 'deposits', "List the user's pending deposits"),

  'GET /api/operations/deposits': o('listPendingDeposits', 'operations', 'List e-mail transfer deposits to clear', {
    errors: [403],
  }),
  'POST /api/operations/clear-deposit': o(
    'clearDeposit',
    'operations',
    'Clear an e-mail transfer deposit',
    operatorStep,
  ),
  'POST /api/operations/reject-deposit': o(
    'rejectDeposit',
    'operations',
    'Reject an e-mail transfer deposit',
    operatorStep,
  ),
  'GET /api/operations/withdrawals': o('listWithdrawals', 'operations', 'List withdrawals to pay out', {
    errors: [403],
  }),
  'POST /api/operations/process-withdrawal': o(
    'processWithdrawal',
    'operations',
    'Mark a withdrawal paid',
    operatorStep,
  ),
  'POST /api/operations/fail-withdrawal': o(
    'failWithdrawal',
    'operations',
    'Mark a withdrawal failed and refund it',
    operatorStep,
  ),
  'POST /api/operations/correct-balance': o('correctBalance', 'operations', "Correct a wallet's balance", operatorStep),
  'GET /api/operations/coin-trail': o('getCoinTrail', 'operations', "Follow one coin serial's movements", {
    errors: [403, 404],
  }),
  'GET /api/operations/events': o('listEvents', 'operations', "List a stream's events", { errors: [403] }),
  'GET /api/operations/ledger-verify': o('getLedgerVerification', 'operations', 'Get the latest ledger verification', {
    errors: [403],
  }),
  'POST /api/operations/ledger-verify': o('verifyLedger', 'operations', 'Verify the ledger now'),
  'GET /api/operations/ledger-log': o(
    'getLedgerLogStatus',
    'operations',
    "Get the ledger log's size, lag, checkpoints and witnesses",
    {
      description: 'The sequencer lag is how long the oldest event not yet in the log has waited.',
    },
  ),
  'GET /api/operations/platform-balances': o('getPlatformBalances', 'operations', "Get the platform's own balances", {
    errors: [403],
  }),
  'GET /api/operations/emails': o('listEmails', 'operations', 'List the e-mail outbox', { errors: [403] }),
  'GET /api/operations/bitcoin-deposits': o('listBitcoinDeposits', 'operations', 'List bitcoin deposits', {
    errors: [403],
  }),
  'GET /api/operations/overview': o('getOperationsOverview', 'operations', 'Get the daily movements overview', {
    errors: [403],
  }),
  'GET /api/operations/people': o('listPeople', 'operations', 'Search people', { errors: [403] }),
  'GET /api/operations/person': o('getPerson', 'operations', 'Get one person, their wallets and activity', {
    errors: [403, 404],
  }),
  'GET /api/operations/corrections': o(
    'listPendingCorrections',
    'operations',
    'List corrections waiting for a second operator',
    {
      errors: [403],
    },
  ),
  'POST /api/operations/approve-correction': o(
    'approveCorrection',
    'operations',
    "Approve another operator's correction, which posts it",
    {
      ...operatorStep,
      errors: [403, ...operatorStep.errors],
      description: 'The operator who asked for the correction is refused (403).',
    },
  ),
  'POST /api/operations/reject-correction': o(
    'rejectCorrection',
    'operations',
    "Reject another operator's correction",
    operatorStep,
  ),
  'POST /api/operations/revoke-session': o('revokeSession', 'operations', "End one of a user's sessions", {
    errors: [403, 404],
  }),
  'POST /api/operations/ban-user': o('banUser', 'operations', 'Ban a user: no sign-in, every session ended', {
    errors: [403, 404, 422],
    description:
      'A finance operator is not banned at once: the ban waits for a second operator (202) at approve-ban, and their sessions live on until then.',
  }),
  'GET /api/operations/bans': o(
    'listPendingBans',
    'operations',
    'List bans of operators waiting for a second operator',
    {
      errors: [403],
    },
  ),
  'POST /api/operations/approve-ban': o(
    'approveBan',
    'operations',
    "Approve another operator's ban of an operator, which bans them and ends their sessions",
    {
      ...operatorStep,
      errors: [403, ...operatorStep.errors],
      description: 'The operator who asked for the ban is refused (403), and the operator to be banned (422).',
    },
  ),
  'POST /api/operations/reject-ban': o('rejectBan', 'operations', "Reject another operator's ban of an operator", {
    ...operatorStep,
    errors: [403, ...operatorStep.errors],
    description: 'The operator who asked for the ban is refused (403).',
  }),
  'POST /api/operations/unban-user': o('unbanUser', 'operations', 'Lift a ban', { errors: [403, 404] }),
  'GET /api/operations/audit': o('listAudit', 'operations', "List the operators' actions", { errors: [403] }),
  'POST /api/operations/resolve-bitcoin-deposit': o(
    'resolveBitcoinDeposit',
    'operations',
    'Credit or refund a flagged bitcoin deposit',
    operatorStep,
  ),

  'POST /api/account/send-fund': o('sendFund', 'send-fund', 'Send money to a user or merchant', {
    ...money,
    example: {
      guser_id: '0b6c1f8e-3d2a-4c5b-9e7f-1a2b3c4d5e6f',
      amount: 1_250,
      currency: 'CON',
      comment: 'Lunch',
    },
  }),

  'POST /api/checkout/create-session': o('createCheckoutSession', 'checkout', 'Open a checkout session for a sale'),
  'GET /api/checkout/session-details': o(
    'getCheckoutSessionDetails',
    'checkout',
    "Get a checkout session's sale, for its merchant",
    {
      errors: [404],
    },
  ),
  'GET /api/checkout/session': o('getCheckoutSession', 'checkout', 'Get a checkout session, for its payer', {
    errors: [404],
  }),
  'POST /api/checkout/pay': o('payCheckout', 'checkout', 'Pay a checkout session from the wallet or a stored card', {
    errors: [404, 409, 422, 503],
  }),

  'POST /api/merchant/return-sale': o('returnSale', 'merchant-space', 'Give back all or part of a sale', {
    ...money,
    example: { tx_id: 'tx_4f1c0e9a7b3d2c1e0f9a8b7c6d5e4f3a', amount: 500, reason: 'Damaged item' },
  }),
  'GET /api/merchant/dashboard': o('getMerchantDashboard', 'merchant-space', "Get the acting merchant's dashboard", {
    errors: [403],
  }),
  'GET /api/merchant/transfers': o('listMerchantTransfers', 'merchant-space', "List the merchant's sales", {
    errors: [403],
  }),
  'GET /api/merchant/returns': o('listMerchantReturns', 'merchant-space', "List the merchant's returns", {
    errors: [403],
  }),
  'GET /api/merchant/sale': o('getMerchantSale', 'merchant-space', 'Get one sale and its returns', {
    errors: [403, 404],
  }),
  'GET /api/merchant/settlements': o('listSettlements', 'merchant-space', "List the merchant's settlements", {
    errors: [403],
  }),
  'GET /api/merchant/settlement': o('getSettlement', 'merchant-space', 'Get one settlement', { errors: [403, 404] }),
  'GET /api/merchant/report': o('getMerchantReport', 'merchant-space', 'Get the sales report for a period', {
    errors: [403],
  }),
  'GET /api/merchant/report.csv': o('getMerchantReportCsv', 'merchant-space', 'Download the sales report as CSV', {
    errors: [403],
    produces: 'text/csv',
  }),

  'POST /api/webhook/list-webhook': o('listWebhooks', 'webhooks', "List the owner's webhooks"),
  'GET /api/webhook/lookup-webhook': o('lookupWebhook', 'webhooks', 'Get one webhook', { errors: [404] }),
  'POST /api/webhook/create-webhook': o('createWebhook', 'webhooks', 'Add a webhook', {
    errors: [422],
    example: { state: 'enabled', url: 'https://shop.example/peeks-hook', events: ['purchase', 'return'] },
  }),
  'POST /api/webhook/update-webhook': o('updateWebhook', 'webhooks', 'Update a webhook', { errors: [404, 422] }),
  'POST /api/webhook/delete-webhook': o('deleteWebhook', 'webhooks', 'Delete a webhook', { errors: [404] }),
  'POST /api/webhook/rotate-secret': o('rotateWebhookSecret', 'webhooks', "Replace a webhook's signing secret", {
    errors: [404],
  }),
  'POST /api/webhook/list-deliveries': o('listWebhookDeliveries', 'webhooks', "List a webhook's deliveries", {
    errors: [404],
  }),
  'POST /api/webhook/replay-delivery': o('replayWebhookDelivery', 'webhooks', 'Send a delivery again', {
    errors: [404, 409],
  }),
  'POST /api/webhook/send-test-event': o('sendWebhookTestEvent', 'webhooks', 'Send a test event to a webhook', {
    errors: [404, 409],
  }),
};
