import { documentTypes, uploadDocumentFields, uploadMessages } from '@peeks/contracts';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { DateField, SelectField, TextField } from '../../ui/fields.tsx';
import { Form, SubmitButton, useSpecForm } from '../../ui/form.tsx';
import { countryChoices, countryName } from '../../ui/geo.ts';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { toast } from '../../ui/toasts.tsx';
import { session } from '../session/index.ts';
import { useDocuments, uploadDocument } from './profile-api.ts';
import { formatDate } from '../../lib/dates.ts';

/**
 * The Document Upload tab (spec §2, §5 "Document upload"): type, number,
 * issuing country, issue and expiry dates with the dashes typed for the
 * user, an image, Upload Document; and the documents already sent.
 */
export function DocumentTab() {
  const { t, i18n } = useTranslation();
  const { user } = useSnapshot(session);
  const documents = useDocuments();
  const file = useRef<HTMLInputElement>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const spec = useSpecForm(uploadDocumentFields, {
    user_id: String(user?.user_id ?? ''),
    document_number: '',
    issuing_country: '',
    issue_date: '',
    expiry_date: '',
  });
  if (!user) return null;
  return (
    <section className="card" aria-labelledby="document-title">
      <h2 id="document-title">{t('profile.tabs.documents')}</h2>
      <Form
        spec={spec}
        onSubmit={async (values) => {
          const chosen = file.current?.files?.[0];
          if (!chosen) {
            setFileError(uploadMessages.fileRequired);
            return;
          }
          const { user_id, merchant_id, ...rest } = values;
          await uploadDocument(
            { ...rest, user_id: String(user_id), ...(merchant_id ? { merchant_id: String(merchant_id) } : {}) },
            chosen,
          );
          toast(t('profile.document.done'));
          spec.form.reset();
          if (file.current) file.current.value = '';
        }}
      >
        <SelectField
          name="document_type"
          label={t('profile.document.type')}
          choices={documentTypes.map((type) => ({ value: type, label: t(`profile.document.types.${type}`) }))}
          placeholder={t('profile.document.choose_type')}
        />
        <TextField name="document_number" label={t('profile.document.number')} autoComplete="off" />
        <SelectField
          name="issuing_country"
          label={t('profile.document.country')}
          choices={countryChoices(i18n.language)}
          placeholder={t('profile.address.choose_country')}
        />
        <DateField name="issue_date" label={t('profile.document.issue_date')} />
        <DateField name="expiry_date" label={t('profile.document.expiry_date')} />
        <div className="field">
          <label htmlFor="document-file">{t('profile.document.file')}</label>
          <input
            id="document-file"
            ref={file}
            type="file"
            accept="image/jpeg,image/png"
            aria-invalid={fileError !== null}
            aria-describedby="document-file-error"
            onChange={() => {
              setFileError(null);
            }}
          />
          <p id="document-file-error" className="field-error" aria-live="polite">
            {fileError}
          </p>
        </div>
        <SubmitButton>{t('profile.document.upload')}</SubmitButton>
      </Form>
      <h3>{t('profile.document.uploaded')}</h3>
      <QueryView
        query={documents}
        loading={<PageLoader label={t('profile.loading')} />}
        failed={() => null}
        isEmpty={(list) => list.length === 0}
        empty={<p className="empty-state">{t('profile.document.none')}</p>}
      >
        {(list) => (
          <ul className="plain-list">
            {list.map((document) => (
              <li key={document.document_id}>
                {t(`profile.document.types.${document.document_type}`)} {document.document_number} ·{' '}
                {countryName(document.issuing_country, i18n.language)} ·{' '}
                {formatDate(document.issue_date, i18n.language)} → {formatDate(document.expiry_date, i18n.language)} ·{' '}
                {t('profile.document.received')}
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </section>
  );
}
