import { transactionTypes, type TransactionView } from '@peeks/contracts';
import { i18n } from '../../i18n/i18n.ts';
import { formatDateTime } from '../../lib/dates.ts';

type KnownType = (typeof transactionTypes)[number];
const isKnownType = (type: string): type is KnownType => (transactionTypes as readonly string[]).includes(type);

/** A transaction's kind in words; a kind this screen does not know yet shows as it is. */
export const transactionTypeLabel = (type: string) => (isKnownType(type) ? i18n.t(`history.types.${type}`) : type);

/** A date and time in the reader's language and time zone. */
export const formatWhen = (iso: string) => formatDateTime(iso);

/** Who was on the other side, as a person knows them: "Bob Birch (@bob)", or a shop's display name. */
export const counterpartyLabel = (counterparty: TransactionView['counterparty']) => {
  if (!counterparty) return null;
  const { name, username } = counterparty;
  if (username === null) return name;
  return name === username ? `@${username}` : `${name} (@${username})`;
};
