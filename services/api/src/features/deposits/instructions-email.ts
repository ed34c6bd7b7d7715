import type { OutgoingEmail } from '@peeks/jobs';
import type { DepositInstructions } from './email-transfer-queries.ts';

/** The languages the app offers (spec §9); an e-mail is written in the one its reader's browser asked for. */
const languages = ['en', 'ja', 'mr'] as const;
export type EmailLanguage = (typeof languages)[number];

/**
 * The first offered language of an Accept-Language header, by weight then
 * order, by primary subtag ("ja-JP" is Japanese); English otherwise.
 */
export function languageOf(acceptLanguage: string | undefined): EmailLanguage {
  const ranges = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...parameters] = part.trim().split(';');
      const weight = parameters.map((each) => /^\s*q=([\d.]+)\s*$/.exec(each)?.[1]).find(Boolean);
      return { primary: tag.trim().toLowerCase().split('-')[0], weight: weight ? Number(weight) : 1, index };
    })
    .filter((range) => range.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return ranges.map((range) => languages.find((each) => each === range.primary)).find(Boolean) ?? 'en';
}

/** Networks by the names their users know them by; brand names, the same in every language. */
const networkNames = { interac: 'Interac e-Transfer', zelle: 'Zelle' } as const;

/** The fields of the e-mail, each under its name in the reader's language. */
type EmailField =
  | 'method'
  | 'reference'
  | 'recipient_name'
  | 'recipient_email'
  | 'security_question'
  | 'security_answer'
  | 'amount'
  | 'coin_estimate'
  | 'completion';

type Texts = {
  subject: (network: string, reference: string) => string;
  labels: Record<EmailField, string>;
  coins: (whole: string, count: number) => string;
  completion: string;
};

const texts: Record<EmailLanguage, Texts> = {
  en: {
    subject: (network, reference) => `Your ${network} deposit instructions (${reference})`,
    labels: {
      method: 'Send with',
      reference: 'Memo',
      recipient_name: 'Recipient name',
      recipient_email: 'Recipient e-mail',
      security_question: 'Security question',
      security_answer: 'Security answer',
      amount: 'Amount',
      coin_estimate: 'Coins you receive',
      completion: 'When',
    },
    coins: (whole, count) => `${whole} ${count === 1 ? 'Coin' : 'Coins'}`,
    completion: 'Your deposit should complete within 60 minutes of your transfer.',
  },
  ja: {
    subject: (network, reference) => `${network}での入金手順（${reference}）`,
    labels: {
      method: '送金方法',
      reference: 'メモ',
      recipient_name: '受取人名',
      recipient_email: '受取人のメールアドレス',
      security_question: '秘密の質問',
      security_answer: '秘密の答え',
      amount: '金額',
      coin_estimate: '受け取るコイン',
      completion: '完了',
    },
    coins: (whole) => `${whole} コイン`,
    completion: '入金は送金後60分以内に完了します。',
  },
  mr: {
    subject: (network, reference) => `तुमच्या ${network} ठेवीच्या सूचना (${reference})`,
    labels: {
      method: 'पाठवण्याची पद्धत',
      reference: 'मेमो',
      recipient_name: 'प्राप्तकर्त्याचे नाव',
      recipient_email: 'प्राप्तकर्त्याचा ई-मेल',
      security_question: 'सुरक्षा प्रश्न',
      security_answer: 'सुरक्षा उत्तर',
      amount: 'रक्कम',
      coin_estimate: 'तुम्हाला मिळणारे कॉइन',
      completion: 'पूर्ण होणे',
    },
    coins: (whole) => `${whole} कॉइन`,
    completion: 'तुमच्या ट्रान्सफरनंतर 60 मिनिटांत तुमची ठेव पूर्ण व्हायला हवी.',
  },
};

/**
 * The e-mail that repeats the dialog's instructions, for the user to follow
 * from the bank's app: in their language, the network by its name, the
 * amount in dollars and the coins in whole coins, never codes or minor units.
 */
export function instructionsEmail(instructions: DepositInstructions, language: EmailLanguage): OutgoingEmail {
  const words = texts[language];
  const network = networkNames[instructions.method];
  const wholeCoins = Math.floor(instructions.coin_estimate / 100);
  return {
    recipient: instructions.sender_email,
    template: 'email-transfer-deposit-instructions',
    subject: words.subject(network, instructions.reference),
    payload: {
      labels: words.labels,
      method: network,
      reference: instructions.reference,
      recipient_name: instructions.recipient_name,
      recipient_email: instructions.recipient_email,
      security_question: instructions.security_question,
      security_answer: instructions.security_answer,
      amount: new Intl.NumberFormat(language, {
        style: 'currency',
        currency: instructions.currency,
        currencyDisplay: 'code',
      }).format(instructions.amount / 100),
      coin_estimate: words.coins(new Intl.NumberFormat(language).format(wholeCoins), wholeCoins),
      completion: words.completion,
    },
  };
}
