import type { Balance, SessionUser } from '@peeks/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatMoney } from '../../lib/money.ts';
import { Avatar } from '../../ui/Avatar.tsx';

/** Where each button of the wallet card goes (spec §4, the variant with the user's card); Add Funds opens the deposit-method modal. */
const CARD_LINKS = [
  ['add_funds', '/?deposit=choose'],
  ['transfer_funds', '/contacts'],
  ['pay_now', '/scan-qr-code'],
  ['latest_transaction', '/transaction'],
  ['view_contacts', '/contacts'],
  ['my_account', '/profile/personal'],
  ['create_transaction', '/generate-qr-code'],
] as const;

/** The dashboard's card: who the user is, what they can spend, and the shortcuts the spec lists. */
export function WalletCard({
  user,
  balance,
}: {
  user: Pick<SessionUser, 'fullname' | 'username' | 'avatar' | 'city' | 'country'>;
  balance: Pick<Balance, 'currency' | 'balance' | 'available_balance'>;
}) {
  const { t } = useTranslation();
  const place = [user.city, user.country].filter(Boolean).join(', ');
  return (
    <section className="wallet-card" aria-label={t('wallet.card.label')}>
      <Avatar user={user} size={64} />
      <div className="wallet-card-who">
        <strong>{user.fullname ?? user.username}</strong>
        {place && <span>{place}</span>}
      </div>
      <dl className="wallet-card-figures">
        <div>
          <dt>{t('wallet.card.available')}</dt>
          <dd>{formatMoney(balance.available_balance, balance.currency)}</dd>
        </div>
        <div>
          <dt>{t('wallet.card.coins')}</dt>
          <dd>{formatMoney(balance.balance, 'CON')}</dd>
        </div>
      </dl>
      <nav className="buttons" aria-label={t('wallet.card.shortcuts')}>
        {CARD_LINKS.map(([key, to]) => (
          <Link key={key} to={to} className="button">
            {t(`wallet.card.${key}`)}
          </Link>
        ))}
      </nav>
    </section>
  );
}
