import { useTranslation } from 'react-i18next';
import { transactionTypeWord } from '../../ui/words.ts';

/** The groups of words the console's data carries. */
type LabelGroup = 'accounts' | 'types' | 'states' | 'methods';

/**
 * A word from the data (a movement type, a state, a method, an account
 * kind) in the reader's language; one the dictionary lacks reads as sent.
 */
export function useDataLabel() {
  const { t } = useTranslation();
  // Transaction types are the shared dictionary's, as every screen names them.
  return (group: LabelGroup, raw: string): string =>
    group === 'types' ? transactionTypeWord(raw) : t(`operations.labels.${group}.${raw}`, { defaultValue: raw });
}
