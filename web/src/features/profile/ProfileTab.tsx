import { changePasswordRequest } from '@peeks/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Avatar } from '../../ui/Avatar.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form, SubmitButton, TextField, useSpecForm } from '../../ui/form.tsx';
import { countryName } from '../../ui/geo.ts';
import { toast } from '../../ui/toasts.tsx';
import { session } from '../session/index.ts';
import { changePassword } from './profile-api.ts';

/** The Profile tab (spec §2): the user's fields, full name and country, and three 'Update' links to the password modal. */
export function ProfileTab() {
  const { t, i18n } = useTranslation();
  const { user } = useSnapshot(session);
  const [changing, setChanging] = useState(false);
  if (!user) return null;
  const open = () => {
    setChanging(true);
  };
  const none = t('profile.not_set');
  return (
    <section className="card profile-card" aria-labelledby="profile-tab-title">
      <div className="profile-head">
        <Avatar user={user} size={72} />
        <div>
          <h2 id="profile-tab-title">{user.fullname ?? user.username}</h2>
          <p className="muted">{countryName(user.country, i18n.language)}</p>
        </div>
      </div>
      <dl className="detail-list">
        <dt>{t('profile.first_name')}</dt>
        <dd>{user.name_first ?? none}</dd>
        <dt>{t('profile.last_name')}</dt>
        <dd>{user.name_last ?? none}</dd>
        <dt>{t('profile.email')}</dt>
        <dd>
          {user.email}{' '}
          <button type="button" className="link-button" onClick={open}>
            {t('profile.update')}
          </button>
        </dd>
        <dt>{t('profile.phone')}</dt>
        <dd>
          {user.phone ?? none}{' '}
          <button type="button" className="link-button" onClick={open}>
            {t('profile.update')}
          </button>
        </dd>
        <dt>{t('profile.password')}</dt>
        <dd>
          ••••••••{' '}
          <button type="button" className="link-button" onClick={open}>
            {t('profile.update')}
          </button>
        </dd>
        <dt>{t('profile.description')}</dt>
        <dd>{user.description ?? none}</dd>
      </dl>
      {changing && (
        <ChangePasswordDialog
          userId={user.user_id}
          onClose={() => {
            setChanging(false);
          }}
        />
      )}
    </section>
  );
}

/** Current, new and confirm (spec §2, §5 "Change password"); the same contract the route checks. */
export function ChangePasswordDialog({ userId, onClose }: { userId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const spec = useSpecForm(changePasswordRequest, {
    id: userId,
    old_password: '',
    new_password: '',
    new_password_repeat: '',
  });
  return (
    <Dialog title={t('profile.change_password')} onClose={onClose}>
      <Form
        spec={spec}
        onSubmit={async (values) => {
          // Spec §4: the same old and new password is refused without a call (the schema says why under the field).
          if (values.old_password === values.new_password) return;
          await changePassword(values);
          toast(t('profile.password_updated'));
          onClose();
        }}
      >
        <TextField
          name="old_password"
          label={t('profile.current_password')}
          type="password"
          autoComplete="current-password"
        />
        <TextField name="new_password" label={t('profile.new_password')} type="password" autoComplete="new-password" />
        <TextField
          name="new_password_repeat"
          label={t('profile.confirm_password')}
          type="password"
          autoComplete="new-password"
        />
        <SubmitButton>{t('profile.change_password')}</SubmitButton>
      </Form>
    </Dialog>
  );
}
