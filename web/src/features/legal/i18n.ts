import { dictionary } from '../../i18n/dictionary.ts';

/**
 * The terms of service and the privacy notice of the sandbox product. The
 * page's headings are translated; the clauses themselves stay English until
 * a legal translator signs them off (a clause worded by us could bind
 * differently), so the other languages fall back to them. The completeness
 * test in i18n/ knows these keys: see `clausesAwaitingLegalTranslation`.
 */
export const legalTexts = dictionary({
  en: {
    legal: {
      updated: 'Last updated: 25 November 2026',
      contents: 'Contents',
      terms: {
        title: 'Terms of Service',
        intro:
          'These terms govern your use of Peeks Wallet, a demonstration wallet and payments service. By creating an account you agree to them.',
        sandbox_title: '1. A sandbox service',
        sandbox:
          'Peeks Wallet runs against sandbox payment partners. No real card is charged, no real bank account is paid, and balances, coins and impressions have no cash value outside this service. Do not enter real card numbers or bank details.',
        account_title: '2. Your account',
        account:
          'You must give accurate details, keep your password secret and tell us at once if you think someone else has used your account. You are responsible for what is done with your account. One person may hold one personal account.',
        money_title: '3. Balances, holds and withdrawals',
        money:
          'Money you receive from others stays on hold for a period before it becomes withdrawable. A transfer, once completed, cannot be reversed by the sender; a payment to a merchant may be refunded by that merchant. Withdrawals go to a payment method in your own name and may be refused when the balance is on hold.',
        conduct_title: '4. Acceptable use',
        conduct:
          'You may not use the service to break the law, to defraud anyone, to test stolen payment details, or to interfere with the service or other people’s use of it. We may suspend an account that does.',
        liability_title: '5. No warranty',
        liability:
          'The service is provided as it is, for demonstration. To the extent the law allows, we are not liable for any loss arising from its use or from its being unavailable.',
        changes_title: '6. Changes',
        changes:
          'We may change these terms. We will show the new terms here with a new date; continuing to use the service after that means you accept them.',
      },
      privacy: {
        title: 'Privacy Notice',
        intro: 'This notice says what Peeks Wallet keeps about you, why, and what you can ask of us.',
        collect_title: '1. What we keep',
        collect:
          'Your username, e-mail address, birth date, country and the profile details you add; your contacts; the payment methods you store (a card is kept only as a token from the card processor and its last four digits); and every movement of your money, which the ledger keeps for audit.',
        use_title: '2. Why',
        use: 'To run your account, to move money as you ask, to prevent fraud, and to keep the records a payments service must keep. We do not sell your data and do not use it for advertising.',
        share_title: '3. Who sees it',
        share:
          'The people you send money to see your name and city. Our sandbox payment partners see what they need to process a payment. Operators of the service see records when they audit or support an account.',
        keep_title: '4. How long',
        keep: 'Account details for as long as the account is open. Ledger records are kept for audit even after an account is closed, because every balance must be explained.',
        rights_title: '5. Your rights',
        rights:
          'You may see and correct your details in your profile, and ask for a copy of what we keep or for your account to be closed by writing to support.',
      },
    },
  },
  ja: {
    legal: {
      updated: '最終更新日: 2026年11月25日',
      contents: '目次',
      terms: {
        title: '利用規約',
        sandbox_title: '1. サンドボックスのサービス',
        account_title: '2. あなたのアカウント',
        money_title: '3. 残高、保留、出金',
        conduct_title: '4. 禁止事項',
        liability_title: '5. 無保証',
        changes_title: '6. 変更',
      },
      privacy: {
        title: 'プライバシーに関するお知らせ',
        collect_title: '1. 保管する情報',
        use_title: '2. 目的',
        share_title: '3. 閲覧できる人',
        keep_title: '4. 保管期間',
        rights_title: '5. あなたの権利',
      },
    },
  },
  mr: {
    legal: {
      updated: 'शेवटचे अद्यतन: 25 नोव्हेंबर 2026',
      contents: 'अनुक्रमणिका',
      terms: {
        title: 'सेवा अटी',
        sandbox_title: '1. सँडबॉक्स सेवा',
        account_title: '2. तुमचे खाते',
        money_title: '3. शिल्लक, रोखलेली रक्कम आणि निधी काढणे',
        conduct_title: '4. स्वीकार्य वापर',
        liability_title: '5. कोणतीही हमी नाही',
        changes_title: '6. बदल',
      },
      privacy: {
        title: 'गोपनीयता सूचना',
        collect_title: '1. आम्ही काय ठेवतो',
        use_title: '2. का',
        share_title: '3. ते कोण पाहते',
        keep_title: '4. किती काळ',
        rights_title: '5. तुमचे अधिकार',
      },
    },
  },
});
