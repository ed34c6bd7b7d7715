import { walletParts, type AccountId } from './accounts.ts';
import { fromSerialText, type CoinAuditLine } from './projection.ts';

/**
 * One coin audit line as a party to its transaction sees it. `fromSerial`
 * is the spec's `serial:from account:currency:value` for a serial the
 * party's own wallet held in the step, and null for any other party's coin;
 * `fromAnotherWallet` says the coin, or where it came from, was another
 * owner's wallet, which is withheld.
 */
export type PersonalAuditLine = { fromSerial: string | null; fromAnotherWallet: boolean };

const walletOwner = (account: AccountId | null) => (account === null ? null : (walletParts(account)?.ownerId ?? null));

/**
 * What `ownerId` may see of an audit line: their own serials in full, and of
 * another owner's coin nothing but that it was another wallet's. A sender's
 * split would otherwise show the receiver the sender's wallet id and the
 * coin's value before the split (often their whole balance); a coin received
 * keeps its serial and value but not the sender's wallet. Platform accounts
 * (fees, settlement, funding) are no one's wallet and stay named.
 */
export function personalAuditLine(
  line: Pick<CoinAuditLine, 'serial' | 'fromAccount' | 'toAccount' | 'value'>,
  ownerId: string,
): PersonalAuditLine {
  const from = walletOwner(line.fromAccount);
  const held = from === ownerId || walletOwner(line.toAccount) === ownerId;
  if (!held) return { fromSerial: null, fromAnotherWallet: true };
  const fromAnotherWallet = from !== null && from !== ownerId;
  return {
    fromSerial: fromSerialText(fromAnotherWallet ? { ...line, fromAccount: null } : line),
    fromAnotherWallet,
  };
}
