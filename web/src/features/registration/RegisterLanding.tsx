import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** /register: a Personal and a Business card, each with its sign-up button and a Learn More link (spec §2; its target is not given). */
export default function RegisterLanding() {
  const { t } = useTranslation();
  const [learnMore, setLearnMore] = useState(false);
  const cards = [
    {
      key: 'personal',
      title: t('register.personal_title'),
      body: t('register.personal_body'),
      to: '/register/personal',
    },
    {
      key: 'business',
      title: t('register.business_title'),
      body: t('register.business_body'),
      to: '/register/business',
    },
  ];
  return (
    <section className="register-landing">
      <h1>{t('register.landing_title')}</h1>
      <div className="cards">
        {cards.map((card) => (
          <article key={card.key} className="panel card" aria-labelledby={`register-${card.key}`}>
            <h2 id={`register-${card.key}`}>{card.title}</h2>
            <p>{card.body}</p>
            <Link to={card.to} className="button primary" aria-describedby={`register-${card.key}`}>
              {t('register.sign_up')}
            </Link>
            <button
              type="button"
              className="link-button"
              onClick={() => {
                setLearnMore(true);
              }}
            >
              {t('register.learn_more')}
            </button>
          </article>
        ))}
      </div>
      <p role="status">{learnMore ? t('register.learn_more_soon') : ''}</p>
    </section>
  );
}
