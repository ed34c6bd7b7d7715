import type { MerchantInfo, SessionUser } from '@peeks/contracts';
import type { MerchantRow, UserRow } from './queries.ts';

/** "YYYY-MM-DD" from Postgres as the forms show it, "DD-MM-YYYY". */
export const dayMonthYear = (isoDate: string) => isoDate.split('-').reverse().join('-');

/** The spec's Session user: the account, its permissions, and the merchants it may act for. */
export function toSessionUser(
  user: UserRow,
  memberships: readonly { merchant_id: number; name: string }[],
  actingFor: number | null,
): SessionUser {
  return {
    user_id: user.user_id,
    guser_id: user.guser_id,
    username: user.username,
    email: user.email,
    fullname: user.fullname,
    prefix: user.prefix,
    name_first: user.name_first,
    name_last: user.name_last,
    phone_region: user.phone_region,
    avatar: user.avatar,
    birthday: dayMonthYear(user.birthday),
    gender: user.gender,
    phone: user.phone,
    city: user.city,
    province: user.province,
    country: user.country,
    currency: user.currency,
    description: user.description,
    followers: 0,
    following: 0,
    account_status: user.account_status,
    is_banned: user.is_banned,
    role: user.role,
    user_type: user.user_type,
    terms_accepted: user.terms_accepted,
    perms: user.perms,
    merchant_id: actingFor,
    merchants: Object.fromEntries(memberships.map((merchant) => [String(merchant.merchant_id), merchant.name])),
    creation_time: user.created_at.toISOString(),
    last_update: user.updated_at.toISOString(),
  };
}

export function toMerchantInfo(merchant: MerchantRow, perms: string[]): MerchantInfo {
  return {
    merchant_id: merchant.merchant_id,
    name: merchant.name,
    dba: merchant.dba,
    website: merchant.website,
    phone: merchant.phone,
    phone_region: merchant.phone_region,
    address: {
      address1: merchant.address1,
      address2: merchant.address2,
      city: merchant.city,
      province: merchant.province_state,
      postal_code: merchant.postal_code,
      country: merchant.country,
    },
    support_url: merchant.support_url,
    support_phone: merchant.support_phone,
    support_phone_region: merchant.support_phone_region,
    support_email: merchant.support_email,
    contact_name: merchant.contact_name,
    contact_email: merchant.contact_email,
    contact_phone: merchant.contact_phone,
    contact_phone_region: merchant.contact_phone_region,
    perms,
  };
}
