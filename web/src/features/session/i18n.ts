import { loginFailedMessage } from '@peeks/contracts';
import { dictionary } from '../../i18n/dictionary.ts';

/** Sign-in and sign-out. English is complete and types the keys; Japanese and Marathi follow it key for key. */
export const sessionTexts = dictionary({
  en: {
    login: {
      title: 'Account Access',
      username: 'Email or username',
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
      username: 'メールアドレスまたはユーザー名',
      password: 'パスワード',
      submit: 'ログイン',
      forgot: 'パスワードをお忘れですか？',
      no_account: 'アカウントをお持ちでないですか？',
      sign_up: '新規登録',
      failed: 'ユーザー名/メールアドレスまたはパスワードが正しくありません',
    },
    logout: { signing_out: 'ログアウトしています…' },
  },
  mr: {
    login: {
      title: 'खाते प्रवेश',
      username: 'ई-मेल किंवा वापरकर्तानाव',
      password: 'पासवर्ड',
      submit: 'माझ्या खात्यात प्रवेश करा',
      forgot: 'तुमचा पासवर्ड विसरलात?',
      no_account: 'खाते नाही?',
      sign_up: 'साइन अप',
      failed: 'चुकीचे वापरकर्तानाव/ई-मेल किंवा पासवर्ड',
    },
    logout: { signing_out: 'तुम्हाला साइन आउट करत आहे…' },
  },
});
