import type { Agreement, AgreementListRequest } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import type { Kysely } from 'kysely';

/** Whose agreements these are: the user, and the merchant the session acts for (null: none). */
export interface AgreementParty {
  userId: number;
  merchantId: number | null;
}

type Filters = Omit<AgreementListRequest, 'merchant_id' | 'user_id'> & { agreementId?: number };

/**
 * The agreements the party sees, each with its own acceptance state: a user
 * agreement by the user's own acceptance, a merchant agreement by the
 * merchant's (whichever of its users gave it). Without a merchant only user
 * agreements are seen.
 */
export async function findAgreements(
  db: Kysely<Database>,
  party: AgreementParty,
  filters: Filters,
  now: Date,
): Promise<Agreement[]> {
  const { merchantId } = party;
  let query = db
    .selectFrom('agreements')
    .leftJoin('agreement_acceptances as acceptance', (join) =>
      join
        .onRef('acceptance.agreement_id', '=', 'agreements.agreement_id')
        .on((eb) =>
          eb.or([
            eb.and([
              eb('agreements.audience', '=', 'user'),
              eb('acceptance.merchant_id', 'is', null),
              eb('acceptance.user_id', '=', party.userId),
            ]),
            ...(merchantId === null
              ? []
              : [eb.and([eb('agreements.audience', '=', 'merchant'), eb('acceptance.merchant_id', '=', merchantId)])]),
          ]),
        ),
    )
    .selectAll('agreements')
    .select(['acceptance.agreed_at', 'acceptance.skipped_at']);
  if (merchantId === null || filters.user_only === true) query = query.where('agreements.audience', '=', 'user');
  if (filters.agreementId !== undefined) query = query.where('agreements.agreement_id', '=', filters.agreementId);
  if (filters.agreed_to !== undefined)
    query = query.where('acceptance.agreed_at', filters.agreed_to ? 'is not' : 'is', null);
  if (filters.valid_only === true) {
    query = query
      .where('agreements.effective_date', '<=', now)
      .where((eb) => eb.or([eb('agreements.expiry_date', 'is', null), eb('agreements.expiry_date', '>', now)]));
  }
  const rows = await query.orderBy('agreements.name').orderBy('agreements.version', 'desc').execute();
  return rows.map((row) => ({
    agreement_id: row.agreement_id,
    name: row.name,
    version: row.version,
    category: row.category,
    audience: row.audience,
    short_description: row.short_description,
    agreed_to: row.agreed_at?.toISOString() ?? null,
    agree_by: row.agree_by?.toISOString() ?? null,
    effective_date: row.effective_date.toISOString(),
    expiry_date: row.expiry_date?.toISOString() ?? null,
    is_accepted: row.agreed_at !== null,
    is_skipped: row.agreed_at === null && row.skipped_at !== null,
  }));
}

/**
 * Records that `userId` accepted (or skipped) the agreement, for the
 * merchant when it binds one. The first acceptance stands: accepting again
 * changes nothing, and a skip after acceptance is ignored.
 */
export async function recordResponse(
  db: Kysely<Database>,
  agreement: Pick<Agreement, 'agreement_id' | 'audience'>,
  party: AgreementParty,
  answer: 'accept' | 'skip',
  now: Date,
): Promise<void> {
  const forMerchant = agreement.audience === 'merchant' ? party.merchantId : null;
  const stamp = answer === 'accept' ? { agreed_at: now } : { skipped_at: now };
  await db
    .insertInto('agreement_acceptances')
    .values({ agreement_id: agreement.agreement_id, user_id: party.userId, merchant_id: forMerchant, ...stamp })
    .onConflict((conflict) => {
      const target =
        forMerchant === null
          ? conflict.columns(['agreement_id', 'user_id']).where('merchant_id', 'is', null)
          : conflict.columns(['agreement_id', 'merchant_id']).where('merchant_id', 'is not', null);
      // Who answered last is who the row names, until someone accepts.
      return target
        .doUpdateSet({ ...stamp, user_id: party.userId })
        .where('agreement_acceptances.agreed_at', 'is', null);
    })
    .execute();
}
