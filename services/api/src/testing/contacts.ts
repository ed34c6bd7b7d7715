/** A fresh e-mail per contact: the address book refuses a duplicate. */
let counter = 0;
/** A valid variant-A contact with a fresh e-mail; override any field. */
export function contactForm(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  const email = `friend.${counter}.${Date.now()}@example.com`;
  return {
    name_first: 'Marie',
    name_last: 'Gagnon',
    phone_region: '+1',
    phone: '6135550199',
    email,
    confirm_email: email,
    address1: '200 Rideau Street',
    address2: 'Unit 5',
    country: 'CA',
    province: 'ON',
    city: 'Ottawa',
    postal: 'K1N 5Y1',
    ...overrides,
  };
}
