import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/**
 * The rest of the spec's card shortcuts (§4), below the balance as a compact
 * list rather than a wall of equal buttons: Transfer Funds and View Contacts
 * were one page, so they are one entry; Trade opens Add Fund, so it reads as
 * buying coins. Add Funds, Pay Now and Send are the card's own actions.
 */
const SHORTCUTS = [
  ['contacts', '/contacts'],
  ['transactions', '/transaction'],
  ['request', '/generate-qr-code'],
  ['buy', '/add-fund'],
  ['account', '/profile/personal'],
] as const;

export function WalletShortcuts() {
  const { t } = useTranslation();
  return (
    <nav className="wallet-shortcuts" aria-labelledby="wallet-shortcuts-title">
      <h2 id="wallet-shortcuts-title">{t('wallet.card.more')}</h2>
      <ul>
        {SHORTCUTS.map(([key, to]) => (
          <li key={key}>
            <Link to={to}>
              <strong>{t(`wallet.card.shortcuts.${key}.title`)}</strong>
              <span>{t(`wallet.card.shortcuts.${key}.note`)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
