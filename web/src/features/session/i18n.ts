import { loginFailedMessage } from '@peeks/contracts';
import { dictionary } from '../../i18n/dictionary.ts';

/** Sign-in and sign-out. English is complete and types the keys; Japanese and Marathi fall back to it key by key. */
export const sessionTexts = dictionary({
  en: {
    login: {
      title: 'Account Access',
      username: 'Email',
      password: 'Password',
      submit: 'Access My Account',
      forgot: 'Forgot your password?',
      no_account: "Don't have an account?",
      sign_up: 'Sign Up',
      failed: loginFailedMessage,
    },
    logout: { signing_out: 'Signing you out…' },
  },
  ja: {
    login: {
      title: 'アカウントへのアクセス',
      username: 'メールアドレス',
      password: 'パスワード',
      submit: 'ログイン',
      forgot: 'パスワードをお忘れですか？',
      sign_up: '新規登録',
    },
  },
  mr: {
    login: {
      title: 'खाते प्रवेश',
      username: 'ईमेल',
      password: 'पासवर्ड',
      submit: 'माझ्या खात्यात प्रवेश करा',
      sign_up: 'साइन अप',
    },
  },
});
