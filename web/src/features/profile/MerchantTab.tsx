import { merchantNameLocked, updateMerchantRequest, type MerchantInfo } from '@peeks/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot, type Snapshot } from 'valtio';
import { formatPhone } from '../../lib/phone.ts';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { DetailList } from '../../ui/DetailList.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { countryName } from '../../ui/geo.ts';
import { Skeleton } from '../../ui/Skeleton.tsx';
import { PhoneField, TextField } from '../../ui/fields.tsx';
import { Form, SubmitButton, useSpecForm } from '../../ui/form.tsx';
import { toast } from '../../ui/toasts.tsx';
import { loadSession, session } from '../session/index.ts';
import { updateMerchant } from './profile-api.ts';

/**
 * The Merchant tab (spec §2): the read-only Merchant Setting card, the
 * business, its support and its contact as three groups of facts, phones as
 * dialled, and its 'Merchant Details' modal.
 */
export function MerchantTab() {
  const { t, i18n } = useTranslation();
  const { merchant } = useSnapshot(session);
  const [editing, setEditing] = useState(false);
  if (!merchant) return <Skeleton lines={6} label={t('profile.loading')} />;
  const { address } = merchant;
  const link = (url: string) => (
    <a href={url} target="_blank" rel="noreferrer">
      {url}
    </a>
  );
  const email = (to: string) => <a href={`mailto:${to}`}>{to}</a>;
  return (
    <Card
      title={t('profile.merchant.setting')}
      className="details-card"
      actions={
        <Button
          onClick={() => {
            setEditing(true);
          }}
        >
          {t('profile.edit')}
        </Button>
      }
    >
      <DetailList
        title={t('profile.merchant.business')}
        details={[
          { label: t('profile.merchant.name'), value: merchant.name },
          { label: t('profile.merchant.dba'), value: merchant.dba },
          { label: t('profile.merchant.website'), value: link(merchant.website) },
          { label: t('profile.merchant.phone'), value: formatPhone(merchant.phone, merchant.phone_region) },
          {
            label: t('profile.merchant.address'),
            value: (
              <address>
                {[address.address1, address.address2].filter(Boolean).join(', ')}
                <br />
                {`${address.city}, ${address.province} ${address.postal_code}`}
                <br />
                {countryName(address.country, i18n.language)}
              </address>
            ),
          },
        ]}
      />
      <DetailList
        title={t('profile.merchant.support')}
        details={[
          { label: t('profile.merchant.support_url'), value: link(merchant.support_url) },
          {
            label: t('profile.merchant.support_phone'),
            value: formatPhone(merchant.support_phone, merchant.support_phone_region),
          },
          { label: t('profile.merchant.support_email'), value: email(merchant.support_email) },
        ]}
      />
      <DetailList
        title={t('profile.merchant.contact')}
        details={[
          { label: t('profile.merchant.contact_name'), value: merchant.contact_name },
          { label: t('profile.merchant.contact_email'), value: email(merchant.contact_email) },
          {
            label: t('profile.merchant.contact_phone'),
            value: formatPhone(merchant.contact_phone, merchant.contact_phone_region),
          },
        ]}
      />
      {editing && (
        <MerchantDialog
          merchant={merchant}
          onClose={() => {
            setEditing(false);
          }}
        />
      )}
    </Card>
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
    support_phone_region: merchant.support_phone_region,
    support_email: merchant.support_email,
    contact_name: merchant.contact_name,
    contact_email: merchant.contact_email,
    contact_phone: merchant.contact_phone,
    contact_phone_region: merchant.contact_phone_region,
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
        <div className="buttons">
          <button type="button" className="button" onClick={onClose}>
            {t('profile.close')}
          </button>
          <SubmitButton>{t('profile.merchant.save')}</SubmitButton>
        </div>
      </Form>
    </Dialog>
  );
}
