import { addRecipientRequest } from '@peeks/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { TextField } from '../../ui/fields.tsx';
import { Form, SubmitButton, useSpecForm } from '../../ui/form.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { toast } from '../../ui/toasts.tsx';
import { addRecipient } from './contacts-api.ts';
import { blankContact, ContactFieldsets } from './ContactFormDialog.tsx';
import { addLaterTexts } from '../../i18n/later-texts.ts';
import { contactsTexts } from './i18n.ts';

// Its own chunk: the texts come with it, not with the first load.
addLaterTexts(contactsTexts);

/** Spec §9: after saving a contact, the page moves on after 2 seconds. */
export const REDIRECT_MS = 2000;

/**
 * /add-recipient (spec §2 Contacts, the Add A Recipient variant): the
 * contact form with a banking details section (§5 Banking) and SAVE AND
 * PROCEED; once saved it says so and goes to /wallet after 2 seconds.
 */
export default function AddRecipientPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [saved, setSaved] = useState(false);
  const spec = useSpecForm(addRecipientRequest, { ...blankContact, bank_name: '', institution_no: '', account_no: '' });

  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => void navigate('/wallet'), REDIRECT_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [saved, navigate]);

  return (
    <section className="panel">
      <PageHeader title={t('contacts.add_recipient.title')} description={t('contacts.add_recipient.description')} />
      {saved ? (
        <p role="status" className="notice">
          {t('contacts.add_recipient.saved')}
        </p>
      ) : (
        <Form
          spec={spec}
          onSubmit={async (form) => {
            await addRecipient(form);
            toast(t('contacts.add_recipient.saved'));
            setSaved(true);
          }}
        >
          <ContactFieldsets />
          <fieldset>
            <legend>{t('contacts.add_recipient.banking')}</legend>
            <TextField name="bank_name" label={t('contacts.add_recipient.bank_name')} autoComplete="off" />
            <TextField name="institution_no" label={t('contacts.add_recipient.institution_no')} autoComplete="off" />
            <TextField name="account_no" label={t('contacts.add_recipient.account_no')} autoComplete="off" />
          </fieldset>
          <div className="buttons">
            <SubmitButton>{t('contacts.add_recipient.save')}</SubmitButton>
          </div>
        </Form>
      )}
    </section>
  );
}
