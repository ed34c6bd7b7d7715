import type { TransactionView } from '@peeks/contracts';
import { formatDateTime } from '../../lib/dates.ts';
import { transactionTypeWord } from '../../ui/words.ts';

/** A transaction's kind in words, from the shared dictionary; a kind it does not know yet shows as it is. */
export const transactionTypeLabel = transactionTypeWord;

/** A date and time in the reader's language and time zone. */
export const formatWhen = (iso: string) => formatDateTime(iso);

/** Who was on the other side, as a person knows them: "Bob Birch (@bob)", or a shop's display name. */
export const counterpartyLabel = (counterparty: TransactionView['counterparty']) => {
  if (!counterparty) return null;
  const { name, username } = counterparty;
  if (username === null) return name;
  return name === username ? `@${username}` : `${name} (@${username})`;
};
