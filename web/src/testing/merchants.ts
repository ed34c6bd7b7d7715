import type { MerchantInfo } from '@peeks/contracts';

/** The merchant lookup's answer for Demo Coffee (merchant 3), on which the member holds no permission. */
export function merchantInfo(overrides: Partial<MerchantInfo> = {}): MerchantInfo {
  return {
    merchant_id: 3,
    name: 'Demo Coffee',
    dba: 'Demo Coffee',
    website: 'https://coffee.example',
    phone: '6135550101',
    phone_region: '+1',
    address: {
      address1: '1 Main Street',
      address2: null,
      city: 'Ottawa',
      province: 'ON',
      postal_code: 'K1A 0B1',
      country: 'CA',
    },
    support_url: 'https://coffee.example/help',
    support_phone: '6135550102',
    support_phone_region: '+1',
    support_email: 'help@coffee.example',
    contact_name: 'Anne',
    contact_email: 'anne@coffee.example',
    contact_phone: '6135550103',
    contact_phone_region: '+1',
    perms: [],
    ...overrides,
  };
}
