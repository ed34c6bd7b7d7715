import { errorCatalogue, type ErrorCode } from '@peeks/contracts';
import { dictionary } from '../i18n/dictionary.ts';

/** Keyed by the code as the API sends it, a string. */
const catalogue: Record<`${ErrorCode}`, string> = errorCatalogue;

/** The shared kit's texts: dialogs, forms, the paginator, currencies, toasts, errors and the error catalogue. English is complete and types the keys; Japanese and Marathi fall back to it key by key. */
export const uiTexts = dictionary({
  en: {
    dialog: { close: 'Close' },
    form: { problems: 'Please fix the following:', submitting: 'Please wait…' },
    paginator: { previous: 'Previous', next: 'Next', page: 'Page {{number}}' },
    currencies: { USD: 'USD', CAD: 'CAD', CON: 'Coins', IMP: 'Impressions' },
    toasts: {
      signed_in: 'Welcome back, {{username}}.',
      signed_up: 'Your account is ready.',
      signed_out: 'You are signed out.',
      merchant_switched: 'You now act for {{merchant}}.',
    },
    errors: {
      something_went_wrong: 'Something went wrong',
      something_went_wrong_in: 'Something went wrong - {{detail}}',
      network: 'The service could not be reached. Check your connection and try again.',
    },
    /** `error_codes.{code}` (spec §8), the catalogue's texts. */
    error_codes: catalogue,
  },
  ja: {
    errors: {
      something_went_wrong: '問題が発生しました',
      network: 'サービスに接続できませんでした。接続を確認して、もう一度お試しください。',
    },
  },
  mr: {
    errors: { something_went_wrong: 'काहीतरी चूक झाली' },
  },
});
