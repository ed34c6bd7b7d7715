import type { checkoutTexts } from '../features/checkout/i18n.ts';
import type { contactsTexts } from '../features/contacts/i18n.ts';
import type { historyTexts } from '../features/history/i18n.ts';
import type { legalTexts } from '../features/legal/i18n.ts';
import type { merchantTexts } from '../features/merchant/i18n.ts';
import type { depositsTexts } from '../features/deposits/i18n.ts';
import type { operationsTexts } from '../features/operations/i18n.ts';
import { paymentMethodsTexts } from '../features/payment-methods/i18n.ts';
import type { qrCodesTexts } from '../features/qr-codes/i18n.ts';
import type { recoveryTexts } from '../features/recovery/i18n.ts';
import { registrationTexts } from '../features/registration/i18n.ts';
import { sessionTexts } from '../features/session/i18n.ts';
import { shellTexts } from '../features/shell/i18n.ts';
import { transferTexts } from '../features/transfer/i18n.ts';
import { walletTexts } from '../features/wallet/i18n.ts';
import { uiTexts } from '../ui/i18n.ts';
import { validationTexts } from '../i18n/validation-texts.ts';
import type { agreementsTexts } from '../features/agreements/i18n.ts';
import { languageTexts } from '../features/language/i18n.ts';
import type { profileTexts } from '../features/profile/i18n.ts';
import type { webhooksTexts } from '../features/webhooks/i18n.ts';
import type { DeepPartial } from '../i18n/dictionary.ts';

/**
 * The first load's dictionaries: the shell's and the screens it shows first.
 * Each top-level key (a feature names its own: `wallet`, `nav`…) becomes an
 * i18next namespace when main.tsx adds them at start; texts.test.ts
 * fails when two dictionaries claim one key. A screen that loads as its own
 * chunk adds its dictionary itself (`addLaterTexts`) and is typed below.
 */
export const dictionaries = [
  uiTexts,
  shellTexts,
  sessionTexts,
  registrationTexts,
  walletTexts,
  paymentMethodsTexts,
  transferTexts,
  languageTexts,
  validationTexts,
] as const;

/** English, complete: its type is every key the app may ask for. */
export const en = {
  ...uiTexts.en,
  ...shellTexts.en,
  ...sessionTexts.en,
  ...registrationTexts.en,
  ...walletTexts.en,
  ...paymentMethodsTexts.en,
  ...transferTexts.en,
  ...languageTexts.en,
  ...validationTexts.en,
};

/** The shape every language follows; other languages may leave keys out and fall back to English. */
export type Translation = typeof en & LaterTexts;

/**
 * Texts of areas loaded later, as their own chunks (the operations console,
 * the merchant space, history, checkout; see later-texts.ts):
 * their keys are typed here, and their chunk adds the texts themselves when
 * it loads, so the wallet's first load does not carry them.
 */
type LaterTexts = (typeof operationsTexts)['en'] &
  (typeof merchantTexts)['en'] &
  (typeof historyTexts)['en'] &
  (typeof checkoutTexts)['en'] &
  (typeof profileTexts)['en'] &
  (typeof webhooksTexts)['en'] &
  (typeof legalTexts)['en'] &
  (typeof qrCodesTexts)['en'] &
  (typeof recoveryTexts)['en'] &
  (typeof contactsTexts)['en'] &
  (typeof depositsTexts)['en'] &
  (typeof agreementsTexts)['en'];
export type PartialTranslation = DeepPartial<Translation>;

/**
 * Japanese and Marathi: every English key (completeness.test.ts fails naming any
 * one missing), but the legal clauses, which fall back to English key by key.
 */
export const ja: PartialTranslation = Object.assign({}, ...dictionaries.map((texts) => texts.ja)) as PartialTranslation;
export const mr: PartialTranslation = Object.assign({}, ...dictionaries.map((texts) => texts.mr)) as PartialTranslation;
