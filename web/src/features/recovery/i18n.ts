import { recoveryMessages } from '@peeks/contracts';
import { dictionary } from '../../i18n/dictionary.ts';

/** Password recovery. English is complete and types the keys; Japanese and Marathi fall back to it key by key. */
export const recoveryTexts = dictionary({
  en: {
    recovery: {
      title: 'Forgot password',
      step: 'Step {{step}} of 5',
      username: 'Username',
      submit: 'Submit',
      code_sent_to: recoveryMessages.codeSentTo,
      send_code: 'Send Code',
      recovery_code: 'Recovery Code',
      resend: 'Resend Recovery Code',
      next: 'Next Step',
      password: 'Password',
      confirm_password: 'Confirm Password',
      save: 'Save My Password',
      changed: recoveryMessages.passwordChanged,
      home: 'Take me Home',
      error: 'Error!',
      back_to_login: 'Back to Log In',
    },
  },
  ja: {
    recovery: {
      title: 'パスワードの再設定',
      submit: '送信',
      send_code: 'コードを送信',
      next: '次へ',
      save: 'パスワードを保存',
    },
  },
  mr: {},
});
