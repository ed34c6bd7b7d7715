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
      security_questions: 'Security Questions',
      security_questions_hint: 'Answer the questions you chose for your account.',
      answers_needed: 'Please answer your security questions',
      answers_wrong: 'The answers to your security questions are incorrect',
      answers_locked: 'Too many wrong tries, please try again in 15 minutes',
    },
  },
  ja: {
    recovery: {
      title: 'パスワードの再設定',
      submit: '送信',
      send_code: 'コードを送信',
      next: '次へ',
      save: 'パスワードを保存',
      security_questions: '秘密の質問',
      security_questions_hint: 'アカウントに設定した質問に答えてください。',
      answers_needed: '秘密の質問に答えてください',
      answers_wrong: '秘密の質問の答えが正しくありません',
      answers_locked: '間違いが多すぎます。15分後にもう一度お試しください',
    },
  },
  mr: {
    recovery: {
      security_questions: 'सुरक्षा प्रश्न',
      security_questions_hint: 'तुमच्या खात्यासाठी निवडलेल्या प्रश्नांची उत्तरे द्या.',
      answers_needed: 'कृपया तुमच्या सुरक्षा प्रश्नांची उत्तरे द्या',
      answers_wrong: 'तुमच्या सुरक्षा प्रश्नांची उत्तरे चुकीची आहेत',
      answers_locked: 'खूप चुकीचे प्रयत्न झाले, कृपया १५ मिनिटांनंतर पुन्हा प्रयत्न करा',
    },
  },
});
