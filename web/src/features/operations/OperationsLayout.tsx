import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { addLaterTexts } from '../../i18n/later-texts.ts';
import { session } from '../session/index.ts';
import { operationsTexts } from './i18n.ts';

addLaterTexts(operationsTexts);

const FINANCE_OPERATOR_ROLE = 'finance';

const sections = [
  'overview',
  'deposits',
  'withdrawals',
  'corrections',
  'coins',
  'events',
  'ledger-log',
  'people',
] as const;

/**
 * The operations console's frame: finance operators only. Anyone else gets
 * the not-found page, as if the area did not exist (the API answers them 403).
 */
export default function OperationsLayout() {
  const { t } = useTranslation();
  const { user } = useSnapshot(session);
  if (user?.role !== FINANCE_OPERATOR_ROLE)
    return (
      <section className="panel">
        <h1>{t('screens.not_found')}</h1>
        <p>{t('not_found.body')}</p>
      </section>
    );
  return (
    <div className="operations">
      <nav className="operations-nav" aria-label={t('operations.nav_label')}>
        {sections.map((section) => (
          <NavLink
            key={section}
            to={section === 'overview' ? '/operations' : `/operations/${section}`}
            end={section === 'overview'}
          >
            {t(`operations.nav.${section === 'ledger-log' ? 'ledger_log' : section}`)}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}
