import { credentialMessages, registrationMessages, webhookMessages } from '@peeks/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../i18n/i18n.ts';
import { shownText } from './api.ts';
import { translatedValidation } from '../i18n/validation-texts.ts';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe("the contracts' validation messages in the reader's language", () => {
  it('read as the contracts wrote them in English', () => {
    for (const message of [
      'Please enter Username',
      'Please enter valid Email',
      'Please select Country',
      'Please enter at least 2 characters First Name',
      'Sorry, 10 digit Phone Number accepted only',
      'Passwords do not match',
    ])
      expect(translatedValidation(message, i18n.t)).toBe(message);
  });

  it('in Japanese and Marathi, pattern and label both translated', async () => {
    await i18n.changeLanguage('ja');
    expect(translatedValidation('Please enter Username', i18n.t)).toBe('ユーザー名を入力してください');
    expect(translatedValidation('Please enter valid Email', i18n.t)).toBe('有効なメールアドレスを入力してください');
    expect(translatedValidation('Please enter at most 64 characters Last Name', i18n.t)).toBe(
      '姓は64文字以内で入力してください',
    );
    expect(translatedValidation('Please enter 10 digit Phone Number', i18n.t)).toBe('電話番号は10桁で入力してください');
    expect(translatedValidation('Passwords do not match', i18n.t)).toBe('パスワードが一致しません');
    await i18n.changeLanguage('mr');
    expect(translatedValidation('Please select Country', i18n.t)).toBe('कृपया देश निवडा');
  });

  it('say the amount limits in words without the spelling slips, with their figure, in every language', async () => {
    expect(translatedValidation('Please enter amount should be greater than 20', i18n.t)).toBe(
      'Please enter amount should be greater than 20',
    );
    await i18n.changeLanguage('ja');
    expect(translatedValidation('Please enter amount should be greater than 20', i18n.t)).toBe(
      '金額は20より大きい値を入力してください',
    );
    expect(translatedValidation('Please enter amount should be less than 500', i18n.t)).toBe(
      '金額は500未満で入力してください',
    );
    await i18n.changeLanguage('mr');
    expect(translatedValidation('Please enter amount should be less than 10000', i18n.t)).toBe(
      'कृपया 10000 पेक्षा कमी रक्कम प्रविष्ट करा',
    );
  });

  it('cover the labels of the bank, merchant, PIN and password forms, and their fixed sentences', async () => {
    await i18n.changeLanguage('ja');
    expect(translatedValidation('Please enter Monthly Sales', i18n.t)).toBe('月間売上を入力してください');
    expect(translatedValidation('Please enter at most 16 characters IBAN', i18n.t)).toBe(
      'IBANは16文字以内で入力してください',
    );
    expect(translatedValidation(credentialMessages.pinsDiffer, i18n.t)).toBe(
      '新しい PIN と確認用の PIN が一致しません。もう一度お試しください。',
    );
    // 'Please select country first' is a sentence of its own, not the label 'country first'.
    expect(translatedValidation(registrationMessages.countryFirst, i18n.t)).toBe('先に国を選択してください');
    await i18n.changeLanguage('mr');
    expect(translatedValidation('Please enter Old PIN', i18n.t)).toBe('कृपया जुना PIN प्रविष्ट करा');
    expect(translatedValidation(webhookMessages.urlInvalid, i18n.t)).toBe('URL अवैध आहे');
  });

  it('a message whose label or pattern is not known stays whole, never half translated', async () => {
    await i18n.changeLanguage('ja');
    expect(translatedValidation('Please enter Favourite Colour', i18n.t)).toBe('Please enter Favourite Colour');
    expect(translatedValidation('Webhook URL host could not be resolved', i18n.t)).toBe(
      'Webhook URL host could not be resolved',
    );
  });

  it("a server's field refusal is shown in the reader's language", async () => {
    await i18n.changeLanguage('ja');
    expect(shownText({ code: 4215, field: 'username', message: 'Please enter Username' })).toBe(
      'ユーザー名を入力してください',
    );
  });
});
