/**
 * A phone as it is dialled: the dialling code, then the ten digits in groups
 * of three, three and four ("+1 613 555 0123", "+44 207 946 0958"). Takes
 * the stored form (ten digits and the code beside them) or the wire form
 * ("+16135550123"); anything else is shown as stored.
 */
export function formatPhone(phone: string, region?: string | null): string {
  const dialled = /^\+(\d{1,4})(\d{10})$/.exec(phone);
  const code = dialled ? `+${dialled[1] ?? ''}` : (region ?? '');
  const digits = dialled ? (dialled[2] ?? '') : phone;
  const groups = /^(\d{3})(\d{3})(\d{4})$/.exec(digits);
  if (!groups) return phone;
  return [code, groups[1], groups[2], groups[3]].filter(Boolean).join(' ');
}
