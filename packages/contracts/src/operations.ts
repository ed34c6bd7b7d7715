import { z } from 'zod';
import { successEnvelope } from './envelope.ts';
import { errorCatalogue, errorCodes } from './error-codes.ts';
import { optionalText, positiveId, say, text } from './fields.ts';
import { typedToMinor } from './payments.ts';
import { currencyCode, transaction, type Currency } from './transactions.ts';

/**
 * The operations console's calls (platform §6, issue 5 item 7): finance
 * operators match e-mail transfer deposits, pay out withdrawals by hand,
 * correct balances, and audit coins, events and the ledger itself.
 */

/** users.role of a finance operator; every other user has the role 'user'. */
export const FINANCE_OPERATOR_ROLE = 'finance';

/** The most rows one page of an operator list or of the event log answers. */
export const OPERATIONS_PAGE_LIMIT = 200;
export const OPERATIONS_PAGE_SIZE = 50;

const invalidArguments = { error: errorCatalogue[errorCodes.invalidArguments] };

/** The e-mail transfer methods an operator matches by hand; bitcoin deposits are watched by a worker. */
export const emailTransferMethods = ['interac', 'zelle'] as const;

const txId = (label = 'Transaction Id') => text(label, { max: 128 });
const reason = text('Reason', { max: 256 });

/** A query string number (query values are text), 0 to `max`. */
const queryNumber = (label: string, max: number) =>
  z
    .string({ error: say.valid(label) })
    .regex(/^\d{1,15}$/, say.valid(label))
    .transform(Number)
    .refine((value) => value <= max, say.valid(label));

const queryTime = (label: string) =>
  z.iso.datetime({ offset: true, error: say.valid(label) }).transform((value) => new Date(value));

const page = {
  offset: queryNumber('offset', 1_000_000).default(0),
  limit: queryNumber('limit', OPERATIONS_PAGE_LIMIT)
    .refine((value) => value >= 1, say.valid('limit'))
    .default(OPERATIONS_PAGE_SIZE),
};

/** Entered between `from` (inclusive) and `to` (exclusive), when given. */
const period = { from: queryTime('from').optional(), to: queryTime('to').optional() };

/** GET /api/operations/deposits: pending e-mail transfer deposits, oldest first (the order they are worked). */
export const pendingDepositsQuery = z.object(
  {
    method: z.enum(emailTransferMethods, { error: say.select('Method') }).optional(),
    /** Part of the reference memo, in any letter case. */
    reference: optionalText('Reference', 64),
    user_id: queryNumber('user_id', Number.MAX_SAFE_INTEGER).optional(),
    ...period,
    ...page,
  },
  invalidArguments,
);

const money = z.object({ amount: z.number().int(), currency: currencyCode });

export const pendingDeposit = z.object({
  tx_id: z.string(),
  entry_date: z.string(),
  expires_at: z.string().nullable(),
  method: z.string(),
  reference: z.string().nullable(),
  /** What the user said they would send, outside the ledger: what the operator must see arrive. */
  payment: money,
  /** The coins it buys (CON minor units), credited when cleared. */
  coins: z.number().int(),
  /** The ledger's owner the coins go to; a user's also by id, username and e-mail. */
  owner_id: z.string(),
  user_id: z.number().int().nullable(),
  username: z.string().nullable(),
  email: z.string().nullable(),
});
export type PendingDeposit = z.infer<typeof pendingDeposit>;
export const pendingDepositsResponse = successEnvelope({ deposits: z.array(pendingDeposit), total: z.number().int() });

/** A whole number of minor units, with the catalogue's amount codes (4040, 4041) for what is wrong with it. */
const minorUnits = (isAllowed: (value: number) => boolean, notAllowed: { code: number; message: string }) =>
  z
    // NaN is what a form makes of typed text that is no amount (JSON cannot carry it): invalid, not missing.
    .number({
      error: (issue) => (Number.isNaN(issue.input) ? errorCatalogue[errorCodes.invalidAmount] : say.enter('amount')),
    })
    .refine(Number.isSafeInteger, {
      error: errorCatalogue[errorCodes.invalidAmount],
      params: { code: errorCodes.invalidAmount },
    })
    .refine(isAllowed, { error: notAllowed.message, params: { code: notAllowed.code } });

const receivedAmount = minorUnits((value) => value > 0, {
  code: errorCodes.amountNotPositive,
  message: errorCatalogue[errorCodes.amountNotPositive],
});

/**
 * POST /api/operations/clear-deposit: what the operator sees in the bank's
 * notice of the transfer. It must match the deposit, or nothing is credited.
 */
export const clearDepositRequest = z.object(
  {
    tx_id: txId(),
    amount_received: receivedAmount,
    currency: currencyCode,
    /** The memo the sender typed with the transfer: the deposit's reference. */
    reference: text('Memo', { max: 64 }),
  },
  invalidArguments,
);
export type ClearDepositRequest = z.infer<typeof clearDepositRequest>;

/** POST /api/operations/reject-deposit */
export const rejectDepositRequest = z.object({ tx_id: txId(), reason }, invalidArguments);

/** GET /api/operations/withdrawals: pending withdrawals, oldest first. */
export const pendingWithdrawalsQuery = z.object(
  {
    user_id: queryNumber('user_id', Number.MAX_SAFE_INTEGER).optional(),
    merchant_id: queryNumber('merchant_id', Number.MAX_SAFE_INTEGER).optional(),
    currency: currencyCode.optional(),
    ...period,
    ...page,
  },
  invalidArguments,
);

export const pendingWithdrawal = z.object({
  tx_id: z.string(),
  entry_date: z.string(),
  amount: z.number().int(),
  currency: currencyCode,
  owner_id: z.string(),
  user_id: z.number().int().nullable(),
  merchant_id: z.number().int().nullable(),
  destination: z.string().nullable(),
  payment_method: z.string().nullable(),
});
export type PendingWithdrawal = z.infer<typeof pendingWithdrawal>;
export const pendingWithdrawalsResponse = successEnvelope({
  withdrawals: z.array(pendingWithdrawal),
  total: z.number().int(),
});

/** POST /api/operations/process-withdrawal: paid out, with the payout's reference at the bank or card network. */
export const processWithdrawalRequest = z.object(
  { tx_id: txId(), payout_reference: text('Payout Reference', { max: 128 }) },
  invalidArguments,
);
/** POST /api/operations/fail-withdrawal: not paid out; the reserved money returns to the wallet. */
export const failWithdrawalRequest = z.object({ tx_id: txId(), reason }, invalidArguments);

/**
 * POST /api/operations/correct-balance: a signed amount (positive credits,
 * negative debits) on one user's or one merchant's wallet in `currency`.
 */
export const correctBalanceRequest = z
  .object(
    {
      user_id: positiveId(say.valid('User')).optional(),
      merchant_id: positiveId(say.valid('Merchant')).optional(),
      currency: currencyCode,
      amount: minorUnits((value) => value !== 0, {
        code: errorCodes.invalidAmount,
        message: errorCatalogue[errorCodes.invalidAmount],
      }),
      reason,
    },
    invalidArguments,
  )
  .refine((value) => (value.user_id === undefined) !== (value.merchant_id === undefined), {
    error: 'Please select either a user or a merchant',
    path: ['user_id'],
  });
export type CorrectBalanceRequest = z.infer<typeof correctBalanceRequest>;

/** A signed amount as typed in units of `currency` ("-1.50" CAD is -150); NaN when it is not a number of that currency. */
export function signedTypedToMinor(typed: string, currency: Currency): number {
  const match = /^\s*([-−+]?)\s*(\d+(?:\.\d*)?|\.\d+)\s*$/.exec(typed);
  const minor = match ? typedToMinor(match[2] ?? '', currency) : null;
  if (minor === null) return Number.NaN;
  return match?.[1] === '-' || match?.[1] === '−' ? -minor : minor;
}

/**
 * The console's correction form: the amount typed in units of the chosen
 * currency, turned into minor units, then the route's own request schema,
 * so the form refuses what the route refuses, in its words.
 */
export const correctBalanceForm = z
  .object({
    user_id: z.unknown().optional(),
    merchant_id: z.unknown().optional(),
    currency: z.unknown().optional(),
    amount: z.unknown().optional(),
    reason: z.unknown().optional(),
  })
  .transform(({ amount, ...rest }) => {
    const currency = currencyCode.safeParse(rest.currency);
    const typed = typeof amount === 'string' && amount.trim() !== '' ? amount : undefined;
    return {
      ...rest,
      amount: typed === undefined ? undefined : signedTypedToMinor(typed, currency.success ? currency.data : 'CON'),
    };
  })
  .pipe(correctBalanceRequest);

/** An operator's answer about one ledger transaction: as the wallet it concerns sees it. */
export const operationResponse = successEnvelope({ transaction });

/**
 * A correction above the approval threshold (CORRECTION_APPROVAL_MINOR),
 * waiting for a second finance operator, or decided by one. Operators are
 * named by their ledger owner id (`user-7`) and their username.
 */
export const correctionRequest = z.object({
  correction_id: z.string(),
  state: z.enum(['pending', 'approved', 'rejected']),
  owner_id: z.string(),
  user_id: z.number().int().nullable(),
  merchant_id: z.number().int().nullable(),
  currency: currencyCode,
  amount: z.number().int().describe('Signed integer minor units of `currency`: positive credits, negative debits'),
  reason: z.string(),
  requested_by: z.string(),
  requested_by_username: z.string().nullable(),
  requested_at: z.string(),
  decided_by: z.string().nullable(),
  decided_by_username: z.string().nullable(),
  decided_at: z.string().nullable(),
  decision_reason: z.string().nullable(),
  /** The ledger transaction an approval posted. */
  tx_id: z.string().nullable(),
});
export type CorrectionRequest = z.infer<typeof correctionRequest>;

/** POST /api/operations/correct-balance above the threshold: 202, nothing posted until another operator approves. */
export const correctionRequestedResponse = successEnvelope({ correction: correctionRequest });

/** What correct-balance answers: the posted transaction (200), or the correction waiting for approval (202). */
export const correctBalanceResponse = z.union([operationResponse, correctionRequestedResponse]);

/** GET /api/operations/corrections: the corrections waiting for approval, oldest first. */
export const pendingCorrectionsQuery = z.object({ ...page }, invalidArguments);
export const pendingCorrectionsResponse = successEnvelope({
  corrections: z.array(correctionRequest),
  total: z.number().int(),
});

const correctionId = text('Correction', { max: 64 });

/** POST /api/operations/approve-correction: by a finance operator other than the one who asked. */
export const approveCorrectionRequest = z.object({ correction_id: correctionId }, invalidArguments);
/** POST /api/operations/reject-correction */
export const rejectCorrectionRequest = z.object({ correction_id: correctionId, reason }, invalidArguments);

/** An approval or rejection: the correction as decided, and for an approval the posted transaction. */
export const correctionDecisionResponse = successEnvelope({
  correction: correctionRequest,
  transaction: transaction.nullable(),
});

/** GET /api/operations/coin-trail?serial= */
export const coinTrailQuery = z.object({ serial: text('Serial', { max: 64 }) }, invalidArguments);

export const coinTrailStep = z.object({
  serial: z.string(),
  action: z.string(),
  value: z.number().int(),
  from_account: z.string().nullable(),
  to_account: z.string().nullable(),
  parent_serial: z.string().nullable(),
  from_serial: z.string(),
  /** The event behind the step. */
  tx_id: z.string(),
  event_position: z.number().int(),
  event_type: z.string(),
  event_time: z.string(),
});
export const coinTrailResponse = successEnvelope({ serial: z.string(), trail: z.array(coinTrailStep) });

/**
 * GET /api/operations/events: the event log, newest first. `before` is the
 * position to continue below (the previous page's `next_before`).
 */
export const eventLogQuery = z.object(
  {
    /** Streams whose id starts with this: `ledger-` for every transaction, `wallet-wallet:user-7:` for one owner's wallets. */
    stream: optionalText('Stream', 200),
    type: optionalText('Type', 100),
    /** Events appended by this actor (an owner id such as `user-7`): an operator's actions. */
    actor: optionalText('Actor', 100),
    ...period,
    before: queryNumber('before', Number.MAX_SAFE_INTEGER).optional(),
    limit: page.limit,
  },
  invalidArguments,
);

export const loggedEvent = z.object({
  position: z.number().int(),
  stream_id: z.string(),
  stream_version: z.number().int(),
  type: z.string(),
  data: z.record(z.string(), z.unknown()),
  metadata: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  hash: z.string(),
  prev_hash: z.string(),
  /** The hash covers the event and its prev_hash, which is the hash of the stream's event before it. */
  link_verifies: z.boolean(),
});
export const eventLogResponse = successEnvelope({
  events: z.array(loggedEvent),
  next_before: z.number().int().nullable(),
});

/** The last `ledger:verify` run the API started, and whether one is running. */
export const ledgerVerification = z.object({
  state: z.enum(['never run', 'running', 'finished', 'crashed']),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  /** Null until a run has finished. */
  ok: z.boolean().nullable(),
  /** The report as `npm run ledger:verify` prints it, or what stopped the run. */
  report: z.string().nullable(),
  /** Where a run has got to (the last one's last stage once finished); null before any run. */
  progress: z
    .object({
      stage: z.enum(['chains', 'replay', 'compare', 'invariants']),
      events_replayed: z.number().int(),
      events_total: z.number().int(),
    })
    .nullable(),
});
export type LedgerVerification = z.infer<typeof ledgerVerification>;
/** `started`: false when a run was already going, which this request then reports on instead. */
export const ledgerVerificationResponse = successEnvelope({ verification: ledgerVerification });
export const ledgerVerificationStartResponse = successEnvelope({
  started: z.boolean(),
  verification: ledgerVerification,
});

export const platformBalance = z.object({
  account_id: z.string(),
  currency: z.string(),
  balance: z.number().int(),
  entries: z.number().int(),
});
/** `as_of`: when the asynchronous projection last caught up (null: never yet). */
export const platformBalancesResponse = successEnvelope({
  balances: z.array(platformBalance),
  as_of: z.string().nullable(),
});

/** GET /api/operations/emails: the e-mail outbox, newest first; `state` picks unsent or sent messages. */
export const emailOutboxQuery = z.object(
  {
    state: z.enum(['unsent', 'sent'], { error: say.select('State') }).optional(),
    /** Part of the recipient's address, in any letter case. */
    recipient: optionalText('Recipient', 64),
    ...page,
  },
  invalidArguments,
);

/** One outbox message. `payload` is what the template fills in, with every secret (a recovery code, a security answer) redacted. */
export const outboxEmail = z.object({
  email_id: z.number().int(),
  recipient: z.string(),
  template: z.string(),
  subject: z.string(),
  payload: z.record(z.string(), z.unknown()),
  /** The unsent message's text, secrets included: only in development with no SMTP_URL, else null. */
  body: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  attempts: z.number().int(),
});
export type OutboxEmail = z.infer<typeof outboxEmail>;
export const emailOutboxResponse = successEnvelope({ emails: z.array(outboxEmail), total: z.number().int() });

/** The bitcoin watcher's states of a deposit (see the README's "Bitcoin deposits"); `flagged` ones wait for an operator. */
export const bitcoinWatchStates = ['pending', 'processing', 'cleared', 'expired', 'flagged'] as const;

/** GET /api/operations/bitcoin-deposits: bitcoin deposits as the watcher sees them, oldest first; `state=flagged` is the operator's work list. */
export const bitcoinDepositsQuery = z.object(
  {
    state: z.enum(bitcoinWatchStates, { error: say.select('State') }).optional(),
    /** `no`: flagged deposits no operator has resolved yet (with `state=flagged`, the work list); `yes`: resolved ones. */
    resolved: z.enum(['yes', 'no'], { error: say.select('Resolved') }).optional(),
    user_id: queryNumber('user_id', Number.MAX_SAFE_INTEGER).optional(),
    ...period,
    ...page,
  },
  invalidArguments,
);

export const bitcoinResolutions = ['credited', 'refunded'] as const;

export const bitcoinDepositView = z.object({
  tx_id: z.string(),
  /** The watcher's state; `ledger_state` is the deposit's transaction's (a flagged deposit keeps the one it had). */
  state: z.enum(bitcoinWatchStates),
  ledger_state: z.string(),
  address: z.string(),
  /** Satoshis due (the quote), paid to the address (mempool and mined), and confirmed enough. */
  amount_sats: z.number().int(),
  received_sats: z.number().int(),
  confirmed_sats: z.number().int(),
  payment_txids: z.array(z.string()),
  usd_cents: z.number().int(),
  /** The coins it buys (CON minor units), credited when cleared. */
  coins: z.number().int(),
  flag: z.enum(['underpaid', 'overpaid', 'late', 'paid-again']).nullable(),
  flag_reason: z.string().nullable(),
  flagged_at: z.string().nullable(),
  seen_at: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  owner_id: z.string(),
  user_id: z.number().int(),
  username: z.string(),
  /** An operator's resolution of a flagged deposit; all null while it waits. */
  resolution: z.enum(bitcoinResolutions).nullable(),
  resolved_sats: z.number().int().nullable(),
  resolved_by: z.string().nullable(),
  resolved_at: z.string().nullable(),
  credit_tx_id: z.string().nullable(),
  refund_address: z.string().nullable(),
});
export type BitcoinDepositView = z.infer<typeof bitcoinDepositView>;
export const bitcoinDepositsResponse = successEnvelope({
  deposits: z.array(bitcoinDepositView),
  total: z.number().int(),
});

/**
 * POST /api/operations/resolve-bitcoin-deposit: an operator's decision on a
 * flagged bitcoin deposit. `credit` mints coins for the satoshis that
 * arrived and were not credited yet, at the deposit's quoted rate; `refund`
 * records that those satoshis were sent back to `refund_address` (the
 * platform does not send bitcoin itself). Either closes the deposit's
 * pending ledger transaction, if it still is.
 */
export const resolveBitcoinDepositRequest = z
  .object(
    {
      tx_id: txId(),
      resolution: z.enum(['credit', 'refund'], { error: say.select('Resolution') }),
      refund_address: optionalText('Refund Address', 100),
      reason,
    },
    invalidArguments,
  )
  // Trimmed, an address of spaces is '': as missing as none.
  .refine((value) => value.resolution !== 'refund' || Boolean(value.refund_address), {
    error: say.enter('Refund Address'),
    path: ['refund_address'],
  });
export type ResolveBitcoinDepositRequest = z.infer<typeof resolveBitcoinDepositRequest>;

/** The deposit as resolved, and for a credit the new transaction as the user's wallet sees it. */
export const resolveBitcoinDepositResponse = successEnvelope({
  deposit: bitcoinDepositView,
  transaction: transaction.nullable(),
});

/** GET /api/operations/overview: what the console's charts draw, over the real history. */
export const operationsOverviewResponse = successEnvelope({
  /** Days covered by `daily_volume` and `webhook_deliveries`, ending today (UTC). */
  days: z.number().int(),
  /** Per UTC day, movement type (purchase, deposit, transfer, …) and currency: completed transactions and their sum (minor units). */
  daily_volume: z.array(
    z.object({
      day: z.string(),
      type: z.string(),
      currency: z.string(),
      count: z.number().int(),
      amount: z.number().int(),
    }),
  ),
  /** Deposits (any method) by method and state. */
  deposits_by_state: z.array(z.object({ method: z.string(), state: z.string(), count: z.number().int() })),
  /** Holds that release within the next 24 hours, per hour (the hour's start) and currency. */
  holds_releasing: z.array(
    z.object({ hour: z.string(), currency: z.string(), count: z.number().int(), amount: z.number().int() }),
  ),
  /** Webhook deliveries per UTC day of creation, by outcome. */
  webhook_deliveries: z.array(
    z.object({
      day: z.string(),
      delivered: z.number().int(),
      failed: z.number().int(),
      pending: z.number().int(),
    }),
  ),
});
export type OperationsOverview = z.infer<typeof operationsOverviewResponse>;

/** GET /api/operations/people?q=: users whose username or e-mail starts with `q` (any letter case). */
export const peopleQuery = z.object(
  { q: text('Username or E-mail', { max: 100 }), limit: page.limit },
  invalidArguments,
);

export const personSummary = z.object({
  user_id: z.number().int(),
  username: z.string(),
  email: z.string(),
  user_type: z.string(),
  role: z.string(),
  account_status: z.string(),
  is_banned: z.boolean(),
  created_at: z.string(),
});
export type PersonSummary = z.infer<typeof personSummary>;
export const peopleResponse = successEnvelope({ people: z.array(personSummary) });

/** GET /api/operations/person?user_id=: what support needs to answer "where is my money?". */
export const personQuery = z.object({ user_id: queryNumber('user_id', Number.MAX_SAFE_INTEGER) }, invalidArguments);

const personTransaction = z.object({
  tx_id: z.string(),
  entry_date: z.string(),
  type: z.string(),
  state: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  /** C: money came to this person; D: it left. */
  debit_credit: z.enum(['C', 'D']),
  payment_method_type: z.string().nullable(),
  reference: z.string().nullable(),
  reason: z.string().nullable(),
});

export const personResponse = successEnvelope({
  person: personSummary,
  owner_id: z.string(),
  wallets: z.array(
    z.object({
      wallet_id: z.string(),
      currency: z.string(),
      total: z.number().int(),
      available: z.number().int(),
      withdrawable: z.number().int(),
      reserved: z.number().int(),
      status: z.string(),
    }),
  ),
  /** Money received on hold and not released yet, soonest first. */
  holds: z.array(
    z.object({
      tx_id: z.string(),
      amount: z.number().int(),
      currency: z.string(),
      release_at: z.string(),
    }),
  ),
  /** The 20 latest transactions, newest first; `deposits` the 20 latest deposits. */
  transactions: z.array(personTransaction),
  deposits: z.array(personTransaction),
  /** Sessions not expired, newest first; `session_id` names one for revocation without revealing its key. */
  sessions: z.array(
    z.object({ session_id: z.string(), created_at: z.string(), last_seen_at: z.string(), expires_at: z.string() }),
  ),
});
export type PersonView = z.infer<typeof personResponse>;

/** GET /api/operations/audit: operators' actions, newest first; `before` as in the event log. */
export const operatorAuditQuery = z.object(
  {
    /** One operator's actions only. */
    user_id: queryNumber('user_id', Number.MAX_SAFE_INTEGER).optional(),
    before: queryNumber('before', Number.MAX_SAFE_INTEGER).optional(),
    limit: page.limit,
  },
  invalidArguments,
);

export const operatorAuditResponse = successEnvelope({
  actions: z.array(
    z.object({
      position: z.number().int(),
      created_at: z.string(),
      operator_id: z.string(),
      operator_username: z.string(),
      type: z.string(),
      stream_id: z.string(),
      tx_id: z.string().nullable(),
      reason: z.string().nullable(),
    }),
  ),
  next_before: z.number().int().nullable(),
});

/** POST /api/operations/revoke-session: ends one of a user's sessions; their next request there is signed out. */
export const revokeSessionRequest = z.object(
  {
    user_id: positiveId(say.valid('User')),
    session_id: z.string({ error: say.valid('Session') }).regex(/^[0-9a-f]{24}$/, say.valid('Session')),
    reason,
  },
  invalidArguments,
);
export type RevokeSessionRequest = z.infer<typeof revokeSessionRequest>;

/**
 * POST /api/operations/ban-user and /api/operations/unban-user: a banned
 * user cannot sign in, recover their password or be paid, and every session
 * of theirs ends at once. Each change is an event with the operator as actor.
 */
export const banUserRequest = z.object({ user_id: positiveId(say.valid('User')), reason }, invalidArguments);
export type BanUserRequest = z.infer<typeof banUserRequest>;

/**
 * A ban of a finance operator, waiting for a second, different finance
 * operator or decided by one: nothing happens to the operator, and their
 * sessions live on, until another operator approves it. Operators are named
 * by their ledger owner id (`user-7`) and their username.
 */
export const banRequest = z.object({
  ban_id: z.string(),
  state: z.enum(['pending', 'approved', 'rejected']),
  user_id: z.number().int(),
  username: z.string(),
  reason: z.string(),
  requested_by: z.string(),
  requested_by_username: z.string().nullable(),
  requested_at: z.string(),
  decided_by: z.string().nullable(),
  decided_by_username: z.string().nullable(),
  decided_at: z.string().nullable(),
  decision_reason: z.string().nullable(),
});
export type BanRequest = z.infer<typeof banRequest>;

/** POST /api/operations/ban-user of a finance operator: 202, nobody banned until another operator approves. */
export const banRequestedResponse = successEnvelope({ ban: banRequest });

/** What ban-user answers: the person banned (200), or the ban of an operator waiting for approval (202). */
export const banUserResponse = z.union([personResponse, banRequestedResponse]);

/** GET /api/operations/bans: the bans of operators waiting for approval, oldest first. */
export const pendingBansQuery = z.object({ ...page }, invalidArguments);
export const pendingBansResponse = successEnvelope({ bans: z.array(banRequest), total: z.number().int() });

const banId = text('Ban', { max: 64 });

/** POST /api/operations/approve-ban: by a finance operator other than the one who asked (and than the one banned). */
export const approveBanRequest = z.object({ ban_id: banId }, invalidArguments);
/** POST /api/operations/reject-ban */
export const rejectBanRequest = z.object({ ban_id: banId, reason }, invalidArguments);

/** An approval or rejection: the ban as decided. */
export const banDecisionResponse = successEnvelope({ ban: banRequest });
