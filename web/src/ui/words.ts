import { i18n } from '../i18n/i18n.ts';
import { uiTexts } from './i18n.ts';

type Words = (typeof uiTexts)['en']['words'];

const has = <Table extends object>(table: Table, key: string): key is Extract<keyof Table, string> => key in table;

/**
 * The words for values the API sends as codes (a transaction's state and
 * type, a ledger entry's type), in the reader's language from the shared
 * dictionary; a code no dictionary knows yet is shown as sent.
 */
export const stateWord = (state: string): string =>
  has<Words['states']>(uiTexts.en.words.states, state) ? i18n.t(`words.states.${state}`) : state;

export const transactionTypeWord = (type: string): string =>
  has<Words['transaction_types']>(uiTexts.en.words.transaction_types, type)
    ? i18n.t(`words.transaction_types.${type}`)
    : type;

export const ledgerTypeWord = (code: string): string =>
  has<Words['ledger_types']>(uiTexts.en.words.ledger_types, code) ? i18n.t(`words.ledger_types.${code}`) : code;
