import { errorCatalogue, errorCodes } from '@peeks/contracts';
import { dictionary } from '../../i18n/dictionary.ts';

/** Transfer fund. English is complete and types the keys; Japanese and Marathi fall back to it key by key. */
export const transferTexts = dictionary({
  en: {
    transfer: {
      looking_up: 'Looking up the recipient…',
      user_not_found: errorCatalogue[errorCodes.recipientNotFound],
      go_back: 'Go Back',
      amount_title: 'Send A Money Transfer',
      notice: 'Recipient will be notified of your transfer within 1-60 mins of completion..',
      amount: 'Amount',
      currency: 'Currency',
      choose_currency: '--Choose a Currency--',
      send: 'Send Money Transfer',
      confirm_title: 'Confirm Transfer',
      recipient: 'Recipient',
      fee: 'Fee',
      total: 'Total',
      complete: 'Complete Transfer',
      processing: 'Processing',
      completed: 'Transfer Completed',
      completed_body: '{{amount}} sent to {{recipient}}.',
      failed: 'Transfer Failed',
      close: 'Close',
      retry: 'Retry Transaction',
      to_self: 'You cannot send money to yourself. Choose one of your contacts instead.',
      not_a_user:
        'This contact does not have a Peeks Wallet account yet, so money cannot be sent to them. Ask them to sign up with the e-mail you saved, then try again.',
      view_contacts: 'View Contacts',
    },
  },
  ja: {
    transfer: {
      user_not_found: 'ユーザーが見つかりません',
      go_back: '戻る',
      send: '送金する',
      complete: '送金を完了',
      processing: '処理中',
      completed: '送金が完了しました',
      failed: '送金に失敗しました',
      close: '閉じる',
    },
  },
  mr: {
    transfer: {
      go_back: 'मागे जा',
      send: 'पैसे पाठवा',
      complete: 'हस्तांतरण पूर्ण करा',
      processing: 'प्रक्रिया सुरू आहे',
      completed: 'हस्तांतरण पूर्ण झाले',
      failed: 'हस्तांतरण अयशस्वी',
      close: 'बंद करा',
    },
  },
});
