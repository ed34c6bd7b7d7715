import { merchantNameLocked, updateMerchantRequest, type MerchantInfo } from '@peeks/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot, type Snapshot } from 'valtio';
import { Dialog } from '../../ui/Dialog.tsx';
import { PhoneField, TextField } from '../../ui/fields.tsx';
import { Form, SubmitButton, useSpecForm } from '../../ui/form.tsx';
import { toast } from '../../ui/toasts.tsx';
import { loadSession, session } from '../session/index.ts';
import { updateMerchant } from './profile-api.ts';

/** The Merchant tab (spec §2): the read-only Merchant Setting card and its 'Merchant Details' modal. */
export function MerchantTab() {
  const { t } = useTranslation();
  const { merchant } = useSnapshot(session);
  const [editing, setEditing] = useState(false);
  if (!merchant) return <p className="empty-state">{t('profile.loading')}</p>;
  const rows: [string, string | null][] = [
    [t('profile.merchant.name'), merchant.name],
    [t('profile.merchant.dba'), merchant.dba],
    [t('profile.merchant.website'), merchant.website],
    [t('profile.merchant.phone'), `${merchant.phone_region} ${merchant.phone}`],
    [t('profile.merchant.address1'), merchant.address.address1],
    [t('profile.merchant.address2'), merchant.address.address2],
    [t('profile.merchant.support_url'), merchant.support_url],
    [t('profile.merchant.support_phone'), merchant.support_phone],
    [t('profile.merchant.support_email'), merchant.support_email],
    [t('profile.merchant.contact_name'), merchant.contact_name],
    [t('profile.merchant.contact_email'), merchant.contact_email],
    [t('profile.merchant.contact_phone'), merchant.contact_phone],
  ];
  return (
    <section className="card" aria-labelledby="merchant-setting-title">
      <div className="panel-heading">
        <h2 id="merchant-setting-title">{t('profile.merchant.setting')}</h2>
        <button
          type="button"
          className="button"
          onClick={() => {
            setEditing(true);
          }}
        >
          {t('profile.edit')}
        </button>
      </div>
      <dl className="detail-list">
        {rows.map(([label, value]) => (
          <div key={label} className="detail-row">
            <dt>{label}</dt>
            <dd>{value ?? '—'}</dd>
          </div>
        ))}
      </dl>
      {editing && (
        <MerchantDialog
          merchant={merchant}
          onClose={() => {
            setEditing(false);
          }}
        />
      )}
    </section>
  );
}

function MerchantDialog({ merchant, onClose }: { merchant: Snapshot<MerchantInfo>; onClose: () => void }) {
  const { t } = useTranslation();
  const spec = useSpecForm(updateMerchantRequest, {
    merchant_id: merchant.merchant_id,
    name: merchant.name,
    dba: merchant.dba,
    website: merchant.website,
    address: { address1: merchant.address.address1, address2: merchant.address.address2 ?? '' },
    support_url: merchant.support_url,
    support_phone: merchant.support_phone,
    support_phone_region: '+1',
    support_email: merchant.support_email,
    contact_name: merchant.contact_name,
    contact_email: merchant.contact_email,
    contact_phone: merchant.contact_phone,
    contact_phone_region: '+1',
  });
  return (
    <Dialog title={t('profile.merchant.details')} onClose={onClose}>
      <Form
        spec={spec}
        onSubmit={async (values) => {
          await updateMerchant(values);
          toast(t('profile.merchant.updated'));
          // Spec §4 "Merchant update": the user record is reloaded, then the modal closes.
          await loadSession();
          onClose();
        }}
      >
        <TextField
          name="name"
          label={t('profile.merchant.name')}
          disabled
          title={merchantNameLocked}
          hint={merchantNameLocked}
        />
        <TextField
          name="dba"
          label={t('profile.merchant.dba')}
          disabled
          title={merchantNameLocked}
          hint={merchantNameLocked}
        />
        <TextField name="website" label={t('profile.merchant.website')} type="url" />
        <TextField name="address.address1" label={t('profile.merchant.address1')} />
        <TextField name="address.address2" label={t('profile.merchant.address2')} />
        <TextField name="support_url" label={t('profile.merchant.support_url')} type="url" />
        <PhoneField
          name="support_phone"
          regionName="support_phone_region"
          label={t('profile.merchant.support_phone')}
        />
        <TextField name="support_email" label={t('profile.merchant.support_email')} type="email" />
        <TextField name="contact_name" label={t('profile.merchant.contact_name')} />
        <TextField name="contact_email" label={t('profile.merchant.contact_email')} type="email" />
        <PhoneField
          name="contact_phone"
          regionName="contact_phone_region"
          label={t('profile.merchant.contact_phone')}
        />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            {t('profile.close')}
          </button>
          <SubmitButton>{t('profile.merchant.save')}</SubmitButton>
        </div>
      </Form>
    </Dialog>
  );
}
