import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { shellTexts } from './i18n.ts';

export type ScreenKey = keyof typeof shellTexts.en.screens;

/** An honest panel for a route whose screen comes in a later release: it says so and does nothing else. */
export function ComingSoon({ screen }: { screen: ScreenKey }) {
  const { t } = useTranslation();
  const name = t(`screens.${screen}`);
  return (
    <section className="panel coming-soon" aria-labelledby="coming-soon-title">
      <h1 id="coming-soon-title">{t('coming_soon.title', { screen: name })}</h1>
      <p>{t('coming_soon.body')}</p>
      <Link to="/" className="button">
        {t('coming_soon.back')}
      </Link>
    </section>
  );
}
