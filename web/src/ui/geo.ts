/** An option of a select: the value sent and the words shown. */
export interface Choice {
  value: string;
  label: string;
}

/** ISO 3166-1 alpha-2 codes, as the country selects send them. Names come from Intl in the user's language. */
const COUNTRY_CODES = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ ' +
  'DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT ' +
  'JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI ' +
  'NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK ' +
  'TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

/** A country's name in the user's language ('Canada' for CA); the code itself when Intl does not know it. */
export function countryName(code: string, language: string): string {
  try {
    return new Intl.DisplayNames([language, 'en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** Canada and the United States first (the product's two markets), then the rest by name. */
export function countryChoices(language: string): Choice[] {
  const choice = (code: string): Choice => ({ value: code, label: countryName(code, language) });
  const rest = COUNTRY_CODES.filter((code) => code !== 'CA' && code !== 'US')
    .map(choice)
    .sort((a, b) => a.label.localeCompare(b.label, language));
  return [choice('CA'), choice('US'), ...rest];
}

/** Dialling codes offered beside phone numbers, with their countries; +1 (Canada and the US) is the default (spec §9). */
const DIALLING_CODES: readonly (readonly [code: string, regions: readonly string[]])[] = [
  ['+1', ['CA', 'US']],
  ['+44', ['GB']],
  ['+52', ['MX']],
  ['+33', ['FR']],
  ['+49', ['DE']],
  ['+61', ['AU']],
  ['+81', ['JP']],
  ['+91', ['IN']],
];

/** The dialling codes as the selects show them, countries named in the user's language: '+1 (Canada / United States)'. */
export function diallingCodeChoices(language: string): Choice[] {
  return DIALLING_CODES.map(([code, regions]) => ({
    value: code,
    label: `${code} (${regions.map((region) => countryName(region, language)).join(' / ')})`,
  }));
}
export const DEFAULT_DIALLING_CODE = '+1';

/**
 * Types a "DD-MM-YYYY" date as the spec's forms do: a dash goes in after the
 * day and after the month while typing forward, none while deleting (so
 * Backspace can remove it), and anything but digits is dropped.
 */
export function withDateDashes(typed: string, previous: string): string {
  const deleting = typed.length < previous.length;
  const digits = typed.replace(/\D/g, '').slice(0, 8);
  let out = digits.slice(0, 2);
  if (digits.length > 2 || (digits.length === 2 && !deleting)) out += '-';
  out += digits.slice(2, 4);
  if (digits.length > 4 || (digits.length === 4 && !deleting)) out += '-';
  return out + digits.slice(4);
}

export const digitsOnly = (typed: string) => typed.replace(/\D/g, '');
