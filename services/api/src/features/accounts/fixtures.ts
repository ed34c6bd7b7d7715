import { randomBytes } from 'node:crypto';
import type { BusinessRegistration, PersonalRegistration } from '@peeks/contracts';
import { addressForm } from '../addresses/fixtures.ts';

/** A fresh, valid personal sign-up; override any field. Used by tests and the login benchmark. */
export function personalSignUp(
  overrides: Partial<Record<keyof PersonalRegistration, unknown>> = {},
): Record<string, unknown> {
  const tag = randomBytes(4).toString('hex');
  return {
    username: `user_${tag}`,
    email: `user.${tag}@example.com`,
    password: 'Secret12',
    confirm_password: 'Secret12',
    birthday: '15-06-1990',
    country: 'CA',
    termsAccepted: 1,
    ...overrides,
  };
}

/** A fresh, valid business sign-up; override any field (and `address` as a whole). */
export function businessSignUp(
  overrides: Partial<Record<keyof BusinessRegistration, unknown>> = {},
): Record<string, unknown> {
  return {
    ...personalSignUp(),
    name: 'Maple Coffee',
    dba: 'Maple Coffee Ltd',
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
    address: { email: 'office@maple.example.com', phone: '6135550102', ...addressForm() },
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
    ...overrides,
  };
}
