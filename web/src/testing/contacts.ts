import type { Contact } from '@peeks/contracts';

/** A saved contact as the list call returns it: Marie Gagnon, who has an account (user 12). */
export function contact(overrides: Partial<Contact> = {}): Contact {
  return {
    contact_id: 1,
    guser_id: '5d2c6a7e-3b1f-4c1e-8f3e-2a9b7c6d5e41',
    user_id: 12,
    username: 'marie_g',
    fullname: 'Marie Gagnon',
    avatar: null,
    currency: 'CAD',
    name_first: 'Marie',
    name_last: 'Gagnon',
    phone: '+16135550199',
    phone_region: '+1',
    email: 'marie@example.com',
    address1: '200 Rideau Street',
    address2: 'Unit 5',
    city: 'Ottawa',
    province: 'ON',
    country: 'CA',
    postal: 'K1N 5Y1',
    ...overrides,
  };
}
