import type { TFunction } from 'i18next';
import { dictionary } from '../i18n/dictionary.ts';

/**
 * The contracts' validation messages in the reader's language. The contracts
 * speak English, built from a few patterns ('Please enter {label}', 'Please
 * enter valid {label}'…) and some fixed sentences; the same words come from
 * the zod schema in a form and from the server's refusal. Each pattern, label
 * and sentence has a key here, so a message is translated by recognising its
 * pattern and label; one not recognised stays in English, whole.
 */
export const validationTexts = dictionary({
  en: {
    validation: {
      patterns: {
        enter: 'Please enter {{label}}',
        valid: 'Please enter valid {{label}}',
        select: 'Please select {{label}}',
        at_least: 'Please enter at least {{n}} characters {{label}}',
        at_most: 'Please enter at most {{n}} characters {{label}}',
        ten_digits: 'Please enter 10 digit {{label}}',
        ten_digits_only: 'Sorry, 10 digit {{label}} accepted only',
      },
      labels: {
        username: 'Username',
        username_email: 'Username/Email',
        password: 'Password',
        confirm_password: 'Confirm Password',
        email: 'Email',
        first_name: 'First Name',
        last_name: 'Last Name',
        phone_number: 'Phone Number',
        phone_region: 'Phone Region',
        city: 'City',
        country: 'Country',
        province: 'Province/State',
        postal: 'Postal/Zip Code',
        address: 'Address',
        address2: 'Address 2',
        comment: 'Comment',
        currency: 'Currency',
        website: 'Website',
        name: 'Name',
        prefix: 'Prefix',
        terminal_id: 'Terminal Id',
        registration_code: 'Registration Code',
        amount: 'amount',
        recipient: 'Recipient',
        card_number: 'Card Number',
        account_number: 'Account Number',
        transit_number: 'Transit Number',
        support_url: 'Support Url',
        support_phone: 'Support Phone',
        security_question: 'Security Question',
        description: 'Description',
      },
      fixed: {
        password_min: 'Password must have at least 6 characters',
        passwords_differ: 'Passwords do not match',
        accept_terms: 'Please accept terms and conditions',
        amount_below: 'Please enter amount should be grater 1',
        amount_above: 'Please enter amount should be less 500',
      },
    },
  },
  ja: {
    validation: {
      patterns: {
        enter: '{{label}}を入力してください',
        valid: '有効な{{label}}を入力してください',
        select: '{{label}}を選択してください',
        at_least: '{{label}}は{{n}}文字以上で入力してください',
        at_most: '{{label}}は{{n}}文字以内で入力してください',
        ten_digits: '{{label}}は10桁で入力してください',
        ten_digits_only: '{{label}}は10桁のみ受け付けます',
      },
      labels: {
        username: 'ユーザー名',
        username_email: 'ユーザー名/メールアドレス',
        password: 'パスワード',
        confirm_password: '確認用パスワード',
        email: 'メールアドレス',
        first_name: '名',
        last_name: '姓',
        phone_number: '電話番号',
        phone_region: '国番号',
        city: '市区町村',
        country: '国',
        province: '州/県',
        postal: '郵便番号',
        address: '住所',
        address2: '住所 2',
        comment: 'コメント',
        currency: '通貨',
        website: 'ウェブサイト',
        name: '名前',
        prefix: '敬称',
        terminal_id: '端末ID',
        registration_code: '登録コード',
        amount: '金額',
        recipient: '受取人',
        card_number: 'カード番号',
        account_number: '口座番号',
        transit_number: '支店番号',
        support_url: 'サポートURL',
        support_phone: 'サポート電話番号',
        security_question: '秘密の質問',
        description: '説明',
      },
      fixed: {
        password_min: 'パスワードは6文字以上にしてください',
        passwords_differ: 'パスワードが一致しません',
        accept_terms: '利用規約に同意してください',
        amount_below: '金額は1以上で入力してください',
        amount_above: '金額は500未満で入力してください',
      },
    },
  },
  mr: {
    validation: {
      patterns: {
        enter: 'कृपया {{label}} प्रविष्ट करा',
        valid: 'कृपया वैध {{label}} प्रविष्ट करा',
        select: 'कृपया {{label}} निवडा',
        at_least: 'कृपया किमान {{n}} अक्षरांचे {{label}} प्रविष्ट करा',
        at_most: 'कृपया जास्तीत जास्त {{n}} अक्षरांचे {{label}} प्रविष्ट करा',
        ten_digits: 'कृपया 10 अंकी {{label}} प्रविष्ट करा',
        ten_digits_only: 'क्षमस्व, फक्त 10 अंकी {{label}} स्वीकारला जातो',
      },
      labels: {
        username: 'वापरकर्तानाव',
        username_email: 'वापरकर्तानाव/ई-मेल',
        password: 'पासवर्ड',
        confirm_password: 'पासवर्डची पुष्टी',
        email: 'ई-मेल',
        first_name: 'पहिले नाव',
        last_name: 'आडनाव',
        phone_number: 'फोन नंबर',
        phone_region: 'देश कोड',
        city: 'शहर',
        country: 'देश',
        province: 'प्रांत/राज्य',
        postal: 'पिन/झिप कोड',
        address: 'पत्ता',
        address2: 'पत्ता 2',
        comment: 'टिप्पणी',
        currency: 'चलन',
        website: 'वेबसाइट',
        name: 'नाव',
        prefix: 'उपसर्ग',
        terminal_id: 'टर्मिनल आयडी',
        registration_code: 'नोंदणी कोड',
        amount: 'रक्कम',
        recipient: 'प्राप्तकर्ता',
        card_number: 'कार्ड नंबर',
        account_number: 'खाते क्रमांक',
        transit_number: 'ट्रान्झिट नंबर',
        support_url: 'सपोर्ट URL',
        support_phone: 'सपोर्ट फोन',
        security_question: 'सुरक्षा प्रश्न',
        description: 'वर्णन',
      },
      fixed: {
        password_min: 'पासवर्डमध्ये किमान 6 अक्षरे असावीत',
        passwords_differ: 'पासवर्ड जुळत नाहीत',
        accept_terms: 'कृपया अटी व शर्ती स्वीकारा',
        amount_below: 'कृपया 1 पेक्षा जास्त रक्कम प्रविष्ट करा',
        amount_above: 'कृपया 500 पेक्षा कमी रक्कम प्रविष्ट करा',
      },
    },
  },
});

type English = (typeof validationTexts)['en']['validation'];

/** An English text to its key, for each table: the message says the text, the dictionary needs the key. */
function keyOf<Key extends string>(table: Record<Key, string>): Map<string, Key> {
  return new Map((Object.entries(table) as [Key, string][]).map(([key, text]) => [text, key]));
}
const fixedKeys = keyOf<keyof English['fixed']>(validationTexts.en.validation.fixed);
const labelKeys = keyOf<keyof English['labels']>(validationTexts.en.validation.labels);

/** The patterns as the contracts build them, most specific first ('Please enter valid X' before 'Please enter X'). */
const PATTERNS: readonly [keyof English['patterns'], RegExp][] = [
  ['at_least', /^Please enter at least (\d+) characters (.+)$/],
  ['at_most', /^Please enter at most (\d+) characters (.+)$/],
  ['ten_digits', /^Please enter (10) digit (.+)$/],
  ['ten_digits_only', /^Sorry, (10) digit (.+) accepted only$/],
  ['valid', /^Please enter valid ()(.+)$/],
  ['select', /^Please select ()(.+)$/],
  ['enter', /^Please enter ()(.+)$/],
];

/** `message` in the language `t` speaks; as it is when its pattern or label is not one of ours. */
export function translatedValidation(message: string, t: TFunction): string {
  const fixed = fixedKeys.get(message);
  if (fixed !== undefined) return t(`validation.fixed.${fixed}`);
  for (const [pattern, expression] of PATTERNS) {
    const found = expression.exec(message);
    if (!found) continue;
    const label = labelKeys.get(found[2] ?? '');
    if (label === undefined) return message;
    return t(`validation.patterns.${pattern}`, {
      label: t(`validation.labels.${label}`),
      n: found[1] ?? '',
    });
  }
  return message;
}
