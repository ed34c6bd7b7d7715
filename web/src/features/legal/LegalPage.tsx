import { useTranslation } from 'react-i18next';
import { addLaterTexts } from '../../i18n/later-texts.ts';
import { legalTexts } from './i18n.ts';

// Its own chunk: the texts come with it, not with the first load.
addLaterTexts(legalTexts);

type Legal = typeof legalTexts.en.legal;
type Document = 'terms' | 'privacy';

/** Each document's sections, in order: a title key and a body key. */
const SECTIONS = {
  terms: ['sandbox', 'account', 'money', 'conduct', 'liability', 'changes'],
  privacy: ['collect', 'use', 'share', 'keep', 'rights'],
} as const satisfies { [D in Document]: readonly (keyof Legal[D] & string)[] };

/** /terms and /privacy: the sandbox product's terms of service and privacy notice, open to everyone. */
export default function LegalPage({ document }: { document: Document }) {
  const { t } = useTranslation();
  return (
    <article className="panel wide legal" aria-labelledby="legal-title">
      <h1 id="legal-title">{t(`legal.${document}.title`)}</h1>
      <p className="page-description">{t('legal.updated')}</p>
      <p>{t(`legal.${document}.intro`)}</p>
      {SECTIONS[document].map((section) => (
        <section key={section} aria-labelledby={`legal-${section}`}>
          <h2 id={`legal-${section}`}>{t(`legal.${document}.${section}_title` as 'legal.terms.sandbox_title')}</h2>
          <p>{t(`legal.${document}.${section}` as 'legal.terms.sandbox')}</p>
        </section>
      ))}
    </article>
  );
}
