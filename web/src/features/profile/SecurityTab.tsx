import { changePinRequest, setPinRequest, setSecurityQuestionsRequest, type SecurityQuestion } from '@peeks/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Dialog } from '../../ui/Dialog.tsx';
import { ServerErrors } from '../../ui/feedback.tsx';
import { SelectField, TextField } from '../../ui/fields.tsx';
import { Form, SubmitButton, useSpecForm } from '../../ui/form.tsx';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { toast } from '../../ui/toasts.tsx';
import { session } from '../session/index.ts';
import { ChangePasswordDialog } from './ProfileTab.tsx';
import { changePin, useSecurityQuestions, useSecuritySettings, setPin, setSecurityQuestions } from './profile-api.ts';

type Open = 'none' | 'password' | 'set-pin' | 'change-pin' | 'questions';

/** The Security tab (spec §2): Change Password, Change Pin, Security Questions (choose 2). */
export function SecurityTab() {
  const { t } = useTranslation();
  const { user } = useSnapshot(session);
  const settings = useSecuritySettings();
  const [open, setOpen] = useState<Open>('none');
  const close = () => {
    setOpen('none');
  };
  const done = (message: string) => {
    toast(message);
    close();
  };
  if (!user) return null;
  return (
    <section className="card" aria-labelledby="security-title">
      <h2 id="security-title">{t('profile.tabs.security')}</h2>
      <QueryView
        query={settings}
        loading={<PageLoader label={t('profile.loading')} />}
        failed={(texts) => <ServerErrors texts={texts} />}
      >
        {(value) => (
          <ul className="setting-rows">
            <li>
              <div>
                <strong>{t('profile.change_password')}</strong>
              </div>
              <button
                type="button"
                className="button"
                onClick={() => {
                  setOpen('password');
                }}
              >
                {t('profile.change_password')}
              </button>
            </li>
            <li>
              <div>
                <strong>{t('profile.change_pin')}</strong>
                <p className="muted">{value.pin_set ? t('profile.pin_is_set') : t('profile.pin_not_set')}</p>
              </div>
              <div className="row-actions">
                {value.pin_set && (
                  <button
                    type="button"
                    className="button"
                    onClick={() => {
                      setOpen('change-pin');
                    }}
                  >
                    {t('profile.change_pin')}
                  </button>
                )}
                <button
                  type="button"
                  className="button"
                  onClick={() => {
                    setOpen('set-pin');
                  }}
                >
                  {value.pin_set ? t('profile.forgot_pin') : t('profile.set_pin')}
                </button>
              </div>
            </li>
            <li>
              <div>
                <strong>{t('profile.security_questions')}</strong>
                <p className="muted">
                  {value.security_questions.length > 0
                    ? value.security_questions.map((each) => each.question).join(' · ')
                    : t('profile.questions_hint')}
                </p>
              </div>
              <button
                type="button"
                className="button"
                onClick={() => {
                  setOpen('questions');
                }}
              >
                {t('profile.choose_questions')}
              </button>
            </li>
          </ul>
        )}
      </QueryView>
      {open === 'password' && <ChangePasswordDialog userId={user.user_id} onClose={close} />}
      {open === 'set-pin' && settings.data && (
        <SetPinDialog pinSet={settings.data.pin_set} onDone={done} onClose={close} />
      )}
      {open === 'change-pin' && <ChangePinDialog onDone={done} onClose={close} />}
      {open === 'questions' && <QuestionsDialog onDone={done} onClose={close} />}
    </section>
  );
}

type Done = { onDone: (message: string) => void; onClose: () => void };

function SetPinDialog({ pinSet, onDone, onClose }: Done & { pinSet: boolean }) {
  const { t } = useTranslation();
  const spec = useSpecForm(setPinRequest, { password: '', pin: '', pin_repeat: '' });
  return (
    <Dialog title={t('profile.set_pin')} onClose={onClose}>
      <Form
        spec={spec}
        onSubmit={async (values) => {
          await setPin(values);
          onDone(t(pinSet ? 'profile.pin_updated' : 'profile.pin_saved'));
        }}
      >
        <TextField name="password" label={t('profile.password')} type="password" autoComplete="current-password" />
        <TextField name="pin" label={t('profile.new_pin')} type="password" inputMode="numeric" autoComplete="off" />
        <TextField
          name="pin_repeat"
          label={t('profile.confirm_pin')}
          type="password"
          inputMode="numeric"
          autoComplete="off"
        />
        <SubmitButton>{t('profile.save')}</SubmitButton>
      </Form>
    </Dialog>
  );
}

function ChangePinDialog({ onDone, onClose }: Done) {
  const { t } = useTranslation();
  const spec = useSpecForm(changePinRequest, { old_pin: '', new_pin: '', new_pin_repeat: '' });
  return (
    <Dialog title={t('profile.change_pin')} onClose={onClose}>
      <Form
        spec={spec}
        onSubmit={async (values) => {
          await changePin(values);
          onDone(t('profile.pin_updated'));
        }}
      >
        <TextField name="old_pin" label={t('profile.old_pin')} type="password" inputMode="numeric" autoComplete="off" />
        <TextField name="new_pin" label={t('profile.new_pin')} type="password" inputMode="numeric" autoComplete="off" />
        <TextField
          name="new_pin_repeat"
          label={t('profile.confirm_pin')}
          type="password"
          inputMode="numeric"
          autoComplete="off"
        />
        <SubmitButton>{t('profile.change_pin')}</SubmitButton>
      </Form>
    </Dialog>
  );
}

function QuestionsDialog({ onDone, onClose }: Done) {
  const { t } = useTranslation();
  const questions = useSecurityQuestions();
  return (
    <Dialog title={t('profile.security_questions')} onClose={onClose}>
      <p>{t('profile.questions_hint')}</p>
      <QueryView
        query={questions}
        loading={<PageLoader label={t('profile.loading')} />}
        failed={(texts) => <ServerErrors texts={texts} />}
      >
        {(list) => <QuestionsForm questions={list} onDone={onDone} />}
      </QueryView>
    </Dialog>
  );
}

function QuestionsForm({ questions, onDone }: { questions: SecurityQuestion[]; onDone: (message: string) => void }) {
  const { t } = useTranslation();
  const spec = useSpecForm(setSecurityQuestionsRequest, {
    password: '',
    questions: [
      { question_id: 0, answer: '' },
      { question_id: 0, answer: '' },
    ],
  });
  const choices = questions.map((each) => ({ value: String(each.question_id), label: each.question }));
  return (
    <Form
      spec={spec}
      onSubmit={async (values) => {
        await setSecurityQuestions(values);
        onDone(t('profile.questions_saved'));
      }}
    >
      {[0, 1].map((index) => (
        <fieldset key={index} className="field-group">
          <legend>{t('profile.question_n', { n: index + 1 })}</legend>
          <SelectField
            name={`questions.${index}.question_id`}
            label={t('profile.question')}
            choices={choices}
            placeholder={t('profile.choose_question')}
            setValueAs={(value) => Number(value)}
          />
          <TextField name={`questions.${index}.answer`} label={t('profile.answer')} autoComplete="off" />
        </fieldset>
      ))}
      <TextField name="password" label={t('profile.password')} type="password" autoComplete="current-password" />
      <SubmitButton>{t('profile.save')}</SubmitButton>
    </Form>
  );
}
