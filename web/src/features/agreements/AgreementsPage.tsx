import type { Agreement } from '@peeks/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { toast } from '../../ui/toasts.tsx';
import { AgreementDialog } from './AgreementDialog.tsx';
import { useAgreements } from './agreements-api.ts';
import { addLaterTexts } from '../../i18n/later-texts.ts';
import { agreementsTexts } from './i18n.ts';

// Its own chunk: the texts come with it, not with the first load.
addLaterTexts(agreementsTexts);

/**
 * The agreements table (spec §2): Name, Version, Category, Agreed (Accepted
 * or Pending), Actions (View when accepted, Accept when pending). Used by
 * /agreement and by the profile's Agreements tab.
 */
export function AgreementsTable({ headingLevel = 1 }: { headingLevel?: 1 | 2 }) {
  const { t } = useTranslation();
  const titleId = useId();
  const list = useAgreements();
  const [open, setOpen] = useState<Agreement | null>(null);
  const Heading = headingLevel === 1 ? 'h1' : 'h2';

  return (
    <section className="panel" aria-labelledby={titleId}>
      <div className="panel-heading">
        <Heading id={titleId}>{t('agreements.title')}</Heading>
      </div>
      <QueryView
        query={list}
        loading={<PageLoader label={t('agreements.loading')} />}
        isEmpty={(agreements) => agreements.length === 0}
        empty={<p className="empty-state">{t('agreements.empty')}</p>}
      >
        {(agreements) => (
          <div className="table-scroll">
            <table className="data-table">
              <caption className="visually-hidden">{t('agreements.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('agreements.name')}</th>
                  <th scope="col">{t('agreements.version')}</th>
                  <th scope="col">{t('agreements.category')}</th>
                  <th scope="col">{t('agreements.agreed')}</th>
                  <th scope="col">{t('agreements.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {agreements.map((agreement) => (
                  <tr key={agreement.agreement_id}>
                    <td data-label={t('agreements.name')}>{agreement.name}</td>
                    <td data-label={t('agreements.version')}>{agreement.version}</td>
                    <td data-label={t('agreements.category')}>{agreement.category}</td>
                    <td data-label={t('agreements.agreed')}>
                      {agreement.agreed_to ? t('agreements.accepted') : t('agreements.pending')}
                    </td>
                    <td data-label={t('agreements.actions')}>
                      <button
                        type="button"
                        className="button small"
                        aria-label={`${agreement.agreed_to ? t('agreements.view') : t('agreements.accept')} ${agreement.name}`}
                        onClick={() => {
                          setOpen(agreement);
                        }}
                      >
                        {agreement.agreed_to ? t('agreements.view') : t('agreements.accept')}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryView>
      {open && (
        <AgreementDialog
          agreement={open}
          dismissable
          onClose={() => {
            setOpen(null);
          }}
          onDone={(_agreement, how) => {
            toast(how === 'accepted' ? t('agreements.accepted_toast') : t('agreements.skipped_toast'));
            // The list is read again: accepting or skipping invalidates it.
            setOpen(null);
          }}
        />
      )}
    </section>
  );
}

/** /agreement */
export default function AgreementsPage() {
  return <AgreementsTable />;
}
