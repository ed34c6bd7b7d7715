import { useTranslation } from 'react-i18next';

/** Copyright line and a Terms And Conditions link (spec §2); the terms page itself is not specified, so the link says so. */
export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="footer">
      <span>{t('footer.copyright', { year: new Date().getFullYear() })}</span>
      <a
        href="#terms"
        aria-disabled="true"
        title={t('nav.not_available')}
        onClick={(event) => {
          event.preventDefault();
        }}
      >
        {t('footer.terms')}
      </a>
    </footer>
  );
}
