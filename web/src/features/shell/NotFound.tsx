import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

export default function NotFound() {
  const { t } = useTranslation();
  return (
    <section className="panel">
      <h1>{t('screens.not_found')}</h1>
      <p>{t('not_found.body')}</p>
      <Link to="/">{t('not_found.home')}</Link>
    </section>
  );
}
