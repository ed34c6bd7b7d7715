import type { Balance, SessionUser } from '@peeks/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatDateTime } from '../../lib/dates.ts';
import { formatMoney } from '../../lib/money.ts';
import { Avatar } from '../../ui/Avatar.tsx';
import { ActionIcon } from './action-icons.tsx';
import { cardFundsNote } from './card-funds.ts';

type CardBalance = Pick<
  Balance,
  | 'currency'
  | 'balance'
  | 'available_balance'
  | 'withdrawable_balance'
  | 'next_hold_release_at'
  | 'card_funds_on_hold'
  | 'card_funds_release_at'
>;

/** "1,560.00 Coins" as figure and unit, so the unit can be set smaller beside the figure; the text stays whole. */
function splitUnit(text: string): [string, string] {
  const space = text.lastIndexOf(' ');
  return space < 0 ? [text, ''] : [text.slice(0, space), text.slice(space + 1)];
}

/**
 * The dashboard's balance (spec §4, issue 36): what the user can spend in
 * one large figure with the currency's name, one primary action and three
 * secondary ones, then on hold, withdrawable and total once each, as a
 * compact breakdown. Figures never wrap: the type shrinks with the card.
 */
export function WalletCard({
  user,
  balance,
  addMoneyTo,
  onSend,
  onWithdraw,
}: {
  user: Pick<SessionUser, 'fullname' | 'username' | 'avatar' | 'city' | 'country'> | null;
  balance: CardBalance;
  /** Add money opens the deposit-method modal on the dashboard, Add Fund elsewhere. */
  addMoneyTo: string;
  onSend: () => void;
  onWithdraw: () => void;
}) {
  const { t, i18n } = useTranslation();
  const place = user ? [user.city, user.country].filter(Boolean).join(', ') : '';
  const [figure, unit] = splitUnit(formatMoney(balance.available_balance, balance.currency));
  const hold = balance.available_balance - balance.withdrawable_balance;
  const cardFunds = cardFundsNote(balance, i18n.language);
  const release =
    hold > 0 && balance.next_hold_release_at ? formatDateTime(balance.next_hold_release_at, i18n.language) : null;

  return (
    <section className="balance-card" aria-label={t('wallet.card.label')}>
      {user && (
        <div className="balance-card-who">
          <Avatar user={user} size={40} />
          <span className="balance-card-name">
            <strong>{user.fullname ?? user.username}</strong>
            {place && <span className="balance-card-place">{place}</span>}
          </span>
        </div>
      )}
      <div className="balance-lead" aria-live="polite">
        <span className="balance-label">{t('wallet.tiles.available')}</span>
        <strong className="balance-figure" data-testid="balance-available">
          {figure}
          {unit && <span className="balance-unit">{` ${unit}`}</span>}
        </strong>
      </div>
      <div className="balance-actions" role="group" aria-label={t('wallet.card.actions')}>
        <Link to={addMoneyTo} className="button primary balance-action">
          <ActionIcon name="add" />
          {t('wallet.card.add_money')}
        </Link>
        <button type="button" className="button balance-action" onClick={onSend}>
          <ActionIcon name="send" />
          {t('wallet.card.send')}
        </button>
        <Link to="/scan-qr-code" className="button balance-action">
          <ActionIcon name="pay" />
          {t('wallet.card.pay')}
        </Link>
        <button type="button" className="button balance-action" onClick={onWithdraw}>
          <ActionIcon name="withdraw" />
          {t('wallet.card.withdraw')}
        </button>
      </div>
      <dl className="balance-breakdown" aria-label={t('wallet.card.breakdown')}>
        <div className="balance-breakdown-item">
          <dt>{t('wallet.tiles.hold')}</dt>
          <dd className="balance-breakdown-figure" data-testid="balance-hold">
            {formatMoney(hold, balance.currency)}
          </dd>
          <dd className="balance-note">{t('wallet.tiles.hold_note')}</dd>
          {release && <dd className="balance-note">{t('wallet.tiles.hold_next', { time: release })}</dd>}
          {hold > 0 && cardFunds && (
            <dd className="balance-note" data-testid="balance-card-funds">
              {t('wallet.tiles.card_funds', cardFunds)}
            </dd>
          )}
        </div>
        <div className="balance-breakdown-item">
          <dt>{t('wallet.tiles.withdrawable')}</dt>
          <dd className="balance-breakdown-figure" data-testid="balance-withdrawable">
            {formatMoney(balance.withdrawable_balance, balance.currency)}
          </dd>
          <dd className="balance-note">{t('wallet.tiles.withdrawable_note')}</dd>
        </div>
        <div className="balance-breakdown-item">
          <dt>{t('wallet.tiles.total')}</dt>
          <dd className="balance-breakdown-figure" data-testid="balance-total">
            {formatMoney(balance.balance, balance.currency)}
          </dd>
          <dd className="balance-note">{t('wallet.tiles.total_note')}</dd>
        </div>
      </dl>
    </section>
  );
}
