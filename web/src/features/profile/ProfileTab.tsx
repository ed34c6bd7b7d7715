import { changePasswordRequest, prefixes, updateUserRequest, type SessionUser } from '@peeks/contracts';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot, type Snapshot } from 'valtio';
import { Avatar } from '../../ui/Avatar.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { NewPasswordField, PhoneField, SelectField, TextField } from '../../ui/fields.tsx';
import { ServerErrors } from '../../ui/feedback.tsx';
import { Form, SubmitButton, useSpecForm } from '../../ui/form.tsx';
import { countryChoices, countryName, DEFAULT_DIALLING_CODE } from '../../ui/geo.ts';
import { ApiError } from '../../lib/api.ts';
import { Button } from '../../ui/Button.tsx';
import { DetailList } from '../../ui/DetailList.tsx';
import { formatPhone } from '../../lib/phone.ts';
import { toast } from '../../ui/toasts.tsx';
import { loadSession, session } from '../session/index.ts';
import { changePassword, updateUser, uploadAvatar } from './profile-api.ts';

/** Spec §6: the profile can be edited only with the UPDATE USER permission. */
const UPDATE_USER = 'UPDATE_USER';

/**
 * The Profile tab (spec §2): the avatar with its upload, the user's fields,
 * full name and country, the edit pencil (UPDATE USER only) opening User
 * Details, and three 'Update' links to the password modal.
 */
export function ProfileTab() {
  const { t, i18n } = useTranslation();
  const { user } = useSnapshot(session);
  const [changing, setChanging] = useState(false);
  const [editing, setEditing] = useState(false);
  if (!user) return null;
  const open = () => {
    setChanging(true);
  };
  const none = <span className="muted">{t('profile.not_set')}</span>;
  // Three Update links open the one password modal (spec §2); each names what it is beside.
  const update = (what: string) => (
    <button type="button" className="link-button" aria-label={`${t('profile.update')}: ${what}`} onClick={open}>
      {t('profile.update')}
    </button>
  );
  return (
    <section className="card profile-card details-card" aria-labelledby="profile-tab-title">
      <div className="profile-head">
        <AvatarUpload user={user} />
        <div className="profile-name">
          <h2 id="profile-tab-title">{user.fullname ?? user.username}</h2>
          <p className="muted">{countryName(user.country, i18n.language)}</p>
        </div>
        {user.perms.includes(UPDATE_USER) && (
          <button
            type="button"
            className="button ghost edit-pencil"
            aria-label={t('profile.edit_profile')}
            title={t('profile.edit_profile')}
            onClick={() => {
              setEditing(true);
            }}
          >
            <span aria-hidden="true">✎</span>
          </button>
        )}
      </div>
      <DetailList
        missing={none}
        details={[
          { label: t('profile.first_name'), value: user.name_first },
          { label: t('profile.last_name'), value: user.name_last },
          { label: t('profile.email'), value: user.email, action: update(t('profile.email')) },
          {
            label: t('profile.phone'),
            value: user.phone === null ? null : formatPhone(user.phone, user.phone_region),
            action: update(t('profile.phone')),
          },
          { label: t('profile.password'), value: '••••••••', action: update(t('profile.password')) },
          { label: t('profile.description'), value: user.description },
        ]}
      />
      {editing && (
        <UserDetailsDialog
          user={user}
          onClose={() => {
            setEditing(false);
          }}
        />
      )}
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
        <NewPasswordField name="new_password" label={t('profile.new_password')} />
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

/**
 * The avatar, or its placeholder (the initial) when there is none, and a
 * .jpg/.jpeg picker: the chosen photo is previewed before Save Photo sends
 * it; after the upload the user is reloaded (spec §4). Anything else is
 * refused before a call, in the server's words.
 */
function AvatarUpload({ user }: { user: Pick<SessionUser, 'avatar' | 'username' | 'user_id'> }) {
  const { t } = useTranslation();
  const inputId = useId();
  const [chosen, setChosen] = useState<{ file: File; preview: string } | null>(null);
  const [errors, setErrors] = useState<readonly string[]>([]);
  const [busy, setBusy] = useState(false);

  const choose = (file: File | undefined) => {
    setErrors([]);
    if (!file) return;
    if (!/\.jpe?g$/i.test(file.name)) {
      setChosen(null);
      setErrors([t('profile.avatar_not_jpeg')]);
      return;
    }
    // A data URL, read here: the preview never leaves the browser.
    const reader = new FileReader();
    reader.onload = () => {
      if (typeof reader.result === 'string') setChosen({ file, preview: reader.result });
    };
    reader.readAsDataURL(file);
  };

  const save = async () => {
    if (!chosen) return;
    setBusy(true);
    try {
      await uploadAvatar(user.user_id, chosen.file);
      toast(t('profile.avatar_uploaded'));
      setChosen(null);
      await loadSession();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setErrors(error.texts);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="avatar-upload">
      {chosen ? (
        <img className="avatar" src={chosen.preview} alt={t('profile.avatar_preview')} width={72} height={72} />
      ) : (
        <Avatar user={user} size={72} />
      )}
      <label htmlFor={inputId} className="link-button avatar-change">
        {t('profile.avatar_change')}
      </label>
      <input
        id={inputId}
        className="visually-hidden"
        type="file"
        accept=".jpg,.jpeg,image/jpeg"
        onChange={(event) => {
          choose(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
      {chosen && (
        <div className="buttons">
          <Button variant="primary" busy={busy} onClick={() => void save()}>
            {t('profile.avatar_save')}
          </Button>
          <Button
            onClick={() => {
              setChosen(null);
            }}
          >
            {t('profile.cancel')}
          </Button>
        </div>
      )}
      <ServerErrors texts={errors} title={null} />
    </div>
  );
}

/** The User Details modal (spec §2, §5 "User details"): names, e-mail, phone, country, city, description; Save User. */
function UserDetailsDialog({ user, onClose }: { user: Snapshot<SessionUser>; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const countries = useMemo(() => countryChoices(i18n.language), [i18n.language]);
  const spec = useSpecForm(updateUserRequest, {
    user_id: user.user_id,
    prefix: prefixes.find((each) => each === user.prefix) ?? null,
    name_first: user.name_first ?? '',
    name_last: user.name_last ?? '',
    email: user.email,
    phone: user.phone ?? '',
    phone_region: user.phone_region ?? DEFAULT_DIALLING_CODE,
    country: user.country,
    city: user.city ?? '',
    description: user.description ?? '',
  });
  return (
    <Dialog title={t('profile.user_details')} onClose={onClose}>
      <Form
        spec={spec}
        onSubmit={async (values) => {
          await updateUser(values);
          toast(t('profile.profile_updated'));
          await loadSession();
          onClose();
        }}
      >
        <SelectField
          name="prefix"
          label={t('profile.prefix')}
          placeholder={t('profile.choose_prefix')}
          choices={prefixes.map((prefix) => ({ value: prefix, label: prefix }))}
          setValueAs={(value) => (value === '' ? null : value)}
        />
        <TextField name="name_first" label={t('profile.first_name')} autoComplete="given-name" />
        <TextField name="name_last" label={t('profile.last_name')} autoComplete="family-name" />
        <TextField name="email" label={t('profile.email')} type="email" autoComplete="email" />
        <PhoneField name="phone" regionName="phone_region" label={t('profile.phone')} />
        <SelectField
          name="country"
          label={t('profile.country')}
          placeholder={t('profile.choose_country')}
          choices={countries}
        />
        <TextField name="city" label={t('profile.city')} autoComplete="address-level2" />
        <TextField name="description" label={t('profile.description')} />
        <div className="buttons">
          <button type="button" className="button" onClick={onClose}>
            {t('profile.close')}
          </button>
          <SubmitButton>{t('profile.save_user')}</SubmitButton>
        </div>
      </Form>
    </Dialog>
  );
}
