import { createContactRequest, updateContactRequest, type Contact } from '@peeks/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../ui/Dialog.tsx';
import { PhoneField, SelectField, TextField } from '../../ui/fields.tsx';
import { Form, SubmitButton, useSpecForm } from '../../ui/form.tsx';
import { countryChoices, DEFAULT_DIALLING_CODE } from '../../ui/geo.ts';
import { createContact, updateContact } from './contacts-api.ts';

/** The phone travels as dialling code plus 10 digits; on edit the last 10 digits are the number and the rest the region (spec §5, variant A). */
function splitPhone(phone: string): { phone_region: string; phone: string } {
  return { phone_region: phone.slice(0, -10) || DEFAULT_DIALLING_CODE, phone: phone.slice(-10) };
}

export const blankContact = {
  name_first: '',
  name_last: '',
  phone_region: DEFAULT_DIALLING_CODE,
  phone: '',
  email: '',
  confirm_email: '',
  address1: '',
  address2: '',
  country: '',
  province: '',
  city: '',
  postal: '',
};

function formOf(contact: Contact) {
  return {
    contact_id: contact.contact_id,
    name_first: contact.name_first,
    name_last: contact.name_last,
    ...splitPhone(contact.phone),
    email: contact.email,
    confirm_email: contact.email,
    address1: contact.address1,
    address2: contact.address2 ?? '',
    country: contact.country,
    province: contact.province,
    city: contact.city,
    postal: contact.postal,
  };
}

/**
 * The contact modal (spec §2 Contacts, §4 Contact modal, §5 Contact form
 * variant A): 'Add New Contact', or 'Update Contact Details' for `contact`.
 * Each opening is a fresh form, so prior errors and validation are gone; on
 * success the page reloads the list and closes it.
 */
export function ContactFormDialog({
  contact,
  onSaved,
  onClose,
}: {
  contact?: Contact;
  onSaved: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog title={t(contact ? 'contacts.edit_title' : 'contacts.add_title')} onClose={onClose}>
      {contact ? (
        <EditContactForm contact={contact} onSaved={onSaved} onClose={onClose} />
      ) : (
        <AddContactForm onSaved={onSaved} onClose={onClose} />
      )}
    </Dialog>
  );
}

function AddContactForm({ onSaved, onClose }: { onSaved: () => void; onClose: () => void }) {
  const spec = useSpecForm(createContactRequest, blankContact);
  return (
    <Form
      spec={spec}
      onSubmit={async (form) => {
        await createContact(form);
        onSaved();
      }}
    >
      <ContactFields onClose={onClose} />
    </Form>
  );
}

function EditContactForm({
  contact,
  onSaved,
  onClose,
}: {
  contact: Contact;
  onSaved: () => void;
  onClose: () => void;
}) {
  const spec = useSpecForm(updateContactRequest, formOf(contact));
  return (
    <Form
      spec={spec}
      onSubmit={async (form) => {
        await updateContact(form);
        onSaved();
      }}
    >
      <ContactFields onClose={onClose} />
    </Form>
  );
}

function ContactFields({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      <ContactFieldsets />
      <div className="buttons dialog-buttons">
        <button type="button" className="button" onClick={onClose}>
          {t('contacts.close')}
        </button>
        <SubmitButton>{t('contacts.save')}</SubmitButton>
      </div>
    </>
  );
}

/** The contact form's two sections, shared by the modal and the Add A Recipient page. */
export function ContactFieldsets() {
  const { t, i18n } = useTranslation();
  const countries = useMemo(() => countryChoices(i18n.language), [i18n.language]);
  return (
    <>
      <fieldset>
        <legend>{t('contacts.contact_information')}</legend>
        <TextField name="name_first" label={t('contacts.first_name')} autoComplete="off" />
        <TextField name="name_last" label={t('contacts.last_name')} autoComplete="off" />
        <PhoneField name="phone" regionName="phone_region" label={t('contacts.phone_number')} />
        <TextField name="email" label={t('contacts.email')} type="email" autoComplete="off" />
        <TextField name="confirm_email" label={t('contacts.confirm_email')} type="email" autoComplete="off" />
      </fieldset>
      <fieldset>
        <legend>{t('contacts.residence_information')}</legend>
        <TextField name="address1" label={t('contacts.address1')} autoComplete="off" />
        <TextField name="address2" label={t('contacts.address2')} autoComplete="off" />
        <SelectField
          name="country"
          label={t('contacts.country')}
          placeholder={t('contacts.choose_country')}
          choices={countries}
        />
        <TextField name="province" label={t('contacts.province')} autoComplete="off" />
        <TextField name="city" label={t('contacts.city')} autoComplete="off" />
        <TextField name="postal" label={t('contacts.postal')} autoComplete="off" />
      </fieldset>
    </>
  );
}
