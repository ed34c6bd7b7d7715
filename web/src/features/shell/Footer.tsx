import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** Copyright line, Terms And Conditions (spec §2) and the privacy notice. */
export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="footer">
      <span>{t('footer.copyright', { year: new Date().getFullYear() })}</span>
      <Link to="/terms">{t('footer.terms')}</Link>
      <Link to="/privacy">{t('footer.privacy')}</Link>
    </footer>
  );
}
