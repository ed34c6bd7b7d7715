/** A valid Address modal form; override any field. */
export const addressForm = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  name_first: 'Anne',
  name_last: 'Tremblay',
  address1: '100 Wellington St',
  address2: 'Suite 4',
  city: 'Ottawa',
  province_state: 'ON',
  postal_code: 'K1A 0B1',
  country: 'CA',
  ...overrides,
});
