import { businessRegistration } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import { DEFAULT_RATE_MICROS, merchantOwnerId, userOwnerId, type LedgerCommand } from '@peeks/ledger';
import { executeLedgerCommand, type LedgerSettings } from '@peeks/ledger-store';
import { sql, type Kysely } from 'kysely';
import { createBusinessUser, hashPassword } from './features/accounts/index.ts';
import { createStaffUser, generatedPassword, makeFinanceOperator, staffSignUp } from './features/operations/index.ts';

export interface DemoAccount {
  role: 'personal user' | 'merchant user' | 'finance operator';
  username: string;
  email: string;
  /** Generated now; stored only as a hash, so this is the one chance to show it. */
  password: string;
}

/** The demo merchant's address, as the Address modal gives it. */
export const demoAddress = {
  name_first: 'Anne',
  name_last: 'Tremblay',
  address1: '100 Wellington St',
  address2: 'Suite 4',
  city: 'Ottawa',
  province_state: 'ON',
  postal_code: 'K1A 0B1',
  country: 'CA',
};

/**
 * The demo merchant's business as its sign-up form gives it, valid under
 * the registration rules. Tests sign businesses up with the same details
 * under another name.
 */
export const demoBusiness = {
  name: 'Demo Coffee',
  dba: 'Demo Coffee Ltd',
  website: 'https://maple.example.com',
  category_id: 3,
  sub_category_id: 12,
  business_type: 'corporation',
  date_established: '01-03-2015',
  monthly_sales: 2_500_000,
  business_number: '123456789',
  business_country: 'CA',
  phone: '6135550101',
  phone_region: '+1',
  address: { email: 'office@maple.example.com', phone: '6135550102', ...demoAddress },
  support_url: 'https://maple.example.com/help',
  support_phone: '6135550103',
  support_phone_region: '+1',
  support_email: 'help@maple.example.com',
  contact_name: 'Anne Tremblay',
  contact_email: 'anne@maple.example.com',
  contact_phone: '6135550104',
  contact_phone_region: '+1',
  owner_citizenship: 'Canadian',
  owner_dob: '02-02-1980',
  owner_name: 'Anne Tremblay',
  owner_phone: '6135550105',
  owner_phone_region: '+1',
  owner_email: 'owner@maple.example.com',
};

// Any constant: it only has to be the same in every process that might seed.
const DEMO_LOCK = 0x5045454b;

/**
 * The demo accounts of platform §3, made on the first start with an empty
 * database (no users): a personal user, a merchant user and a finance
 * operator, each with a fresh random password, and a little history
 * (corrections funding them, transfers between them, an e-mail transfer
 * deposit waiting for the operator). Returns the accounts to print once, or
 * null when the database already has users. A lock keeps two processes
 * starting together from both seeding.
 */
export async function createDemoData(
  db: Kysely<Database>,
  settings: LedgerSettings,
  now: Date,
): Promise<DemoAccount[] | null> {
  return db.connection().execute(async (connection) => {
    await sql`SELECT pg_advisory_lock(${DEMO_LOCK})`.execute(connection);
    try {
      const anyone = await db.selectFrom('users').select('user_id').limit(1).executeTakeFirst();
      return anyone ? null : await seed(db, settings, now);
    } finally {
      await sql`SELECT pg_advisory_unlock(${DEMO_LOCK})`.execute(connection);
    }
  });
}

function signUpOf(username: string, email: string) {
  const signUp = staffSignUp(username, email);
  if (!signUp.success)
    throw new Error(`demo account ${username} breaks the registration rules: ${signUp.error.message}`);
  return signUp.data;
}

async function seed(db: Kysely<Database>, settings: LedgerSettings, now: Date): Promise<DemoAccount[]> {
  const personal = signUpOf('demo_personal', 'demo.personal@example.com');
  const personalId = await createStaffUser(db, personal, now);
  const finance = signUpOf('demo_finance', 'demo.finance@example.com');
  const financeId = await createStaffUser(db, finance, now);
  await makeFinanceOperator(db, financeId, now);
  const merchantPassword = generatedPassword();
  const merchant = businessRegistration.parse({
    username: 'demo_merchant',
    email: 'demo.merchant@example.com',
    password: merchantPassword,
    confirm_password: merchantPassword,
    birthday: '15-06-1990',
    country: 'CA',
    termsAccepted: 1,
    ...demoBusiness,
  });
  const { userId: merchantUserId, merchantId } = await createBusinessUser(
    db,
    merchant,
    await hashPassword(merchantPassword),
    now,
  );

  const ann = userOwnerId(personalId);
  const shopOwner = userOwnerId(merchantUserId);
  const shop = merchantOwnerId(merchantId);
  const operator = userOwnerId(financeId);
  const correction = (
    txId: string,
    ownerId: string,
    amount: number,
    currency: 'CON' | 'USD' | 'CAD',
    reason: string,
  ): LedgerCommand => ({ type: 'CorrectBalance', txId, ownerId, amount, currency, reason, operatorId: operator });
  const transfer = (
    txId: string,
    kind: 'P2P' | 'PURCHASE',
    fromOwnerId: string,
    toOwnerId: string,
    amount: number,
    memo: string,
  ): LedgerCommand => ({ type: 'Transfer', txId, kind, fromOwnerId, toOwnerId, amount, fee: 0, currency: 'CON', memo });
  const history: LedgerCommand[] = [
    correction('demo-fund-personal-con', ann, 500_00, 'CON', 'Demo opening balance'),
    correction('demo-fund-personal-usd', ann, 200_00, 'USD', 'Demo opening balance'),
    correction('demo-fund-merchant-user-con', shopOwner, 120_00, 'CON', 'Demo opening balance'),
    correction('demo-fund-merchant-cad', shop, 75_00, 'CAD', 'Demo opening balance'),
    transfer('demo-coffee-beans', 'PURCHASE', ann, shop, 25_00, 'Coffee beans'),
    transfer('demo-lunch', 'P2P', ann, shopOwner, 40_00, 'Lunch'),
    transfer('demo-concert-tickets', 'P2P', shopOwner, ann, 15_50, 'Concert tickets'),
    {
      type: 'EnterDeposit',
      txId: 'demo-interac-deposit',
      ownerId: ann,
      method: 'interac',
      payment: { amount: 50_00, currency: 'CAD' },
      rateMicros: DEFAULT_RATE_MICROS,
      reference: 'PKSDEMO1',
      expiresAt: null,
    },
  ];
  // One after another: each transfer spends what a correction before it put there.
  for (const command of history) await executeLedgerCommand(db, command, settings, { actor: operator });

  return [
    { role: 'personal user', username: personal.username, email: personal.email, password: personal.password },
    { role: 'merchant user', username: merchant.username, email: merchant.email, password: merchantPassword },
    { role: 'finance operator', username: finance.username, email: finance.email, password: finance.password },
  ];
}

/** The demo accounts as the start prints them, once. */
export function describeDemoAccounts(accounts: readonly DemoAccount[]): string {
  const lines = accounts.map(
    (account) => `  ${account.role.padEnd(17)} ${account.username.padEnd(14)} ${account.password}   (${account.email})`,
  );
  return ['', 'Demo accounts (shown only now; passwords are stored hashed):', ...lines, ''].join('\n');
}
