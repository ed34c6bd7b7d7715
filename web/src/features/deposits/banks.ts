/** Online banking a sender opens to make an Interac or Zelle transfer, by the user's country (spec §2: falling back to US). */
export interface BankLink {
  name: string;
  url: string;
}

const BANKS: Readonly<Record<'CA' | 'US', readonly BankLink[]>> = {
  CA: [
    { name: 'RBC Royal Bank', url: 'https://www.rbcroyalbank.com' },
    { name: 'TD Canada Trust', url: 'https://www.td.com/ca' },
    { name: 'Scotiabank', url: 'https://www.scotiabank.com' },
    { name: 'BMO', url: 'https://www.bmo.com' },
    { name: 'CIBC', url: 'https://www.cibc.com' },
  ],
  US: [
    { name: 'Chase', url: 'https://www.chase.com' },
    { name: 'Bank of America', url: 'https://www.bankofamerica.com' },
    { name: 'Wells Fargo', url: 'https://www.wellsfargo.com' },
    { name: 'Citi', url: 'https://www.citi.com' },
    { name: 'U.S. Bank', url: 'https://www.usbank.com' },
    { name: 'PNC', url: 'https://www.pnc.com' },
    { name: 'Capital One', url: 'https://www.capitalone.com' },
  ],
};

export function banksFor(country: string | null): readonly BankLink[] {
  return country === 'CA' ? BANKS.CA : BANKS.US;
}
