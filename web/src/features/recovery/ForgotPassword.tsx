import {
  checkRecoveryCodeRequest,
  errorCodes,
  recoveryUsername,
  resetPasswordRequest,
  type SecurityQuestion,
} from '@peeks/contracts';
import type { TFunction } from 'i18next';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ApiError } from '../../lib/api.ts';
import { LoadingOverlay, ServerErrors, useApiAction } from '../../ui/feedback.tsx';
import { NewPasswordField, TextField } from '../../ui/fields.tsx';
import { Form, SubmitButton, useSpecForm } from '../../ui/form.tsx';
import { checkRecoveryCode, recoveryEmail, resetPassword, sendRecoveryCode } from './recovery-api.ts';
import { addLaterTexts } from '../../i18n/later-texts.ts';
import { recoveryTexts } from './i18n.ts';

// Its own chunk: the texts come with it, not with the first load.
addLaterTexts(recoveryTexts);

/**
 * /forgot-password, five steps (spec §2, §4): 1 username, 2 the masked
 * recovery e-mail and Send Code, 3 the code (with Resend), 4 the new
 * password, 5 done. Errors show the server's text under 'Error!'; buttons
 * are disabled while a request runs.
 */
type Step =
  | { step: 1 }
  | { step: 2; username: string; email: string }
  | { step: 3; username: string }
  | { step: 4; username: string; recoveryCode: string; questions: SecurityQuestion[] }
  | { step: 5 };

export default function ForgotPassword() {
  const { t } = useTranslation();
  const titleId = useId();
  const [state, setState] = useState<Step>({ step: 1 });
  return (
    <section className="panel narrow" aria-labelledby={titleId}>
      <h1 id={titleId}>{t('recovery.title')}</h1>
      <p className="step">{t('recovery.step', { step: state.step })}</p>
      {state.step === 1 && (
        <UsernameStep
          onDone={(username, email) => {
            setState({ step: 2, username, email });
          }}
        />
      )}
      {state.step === 2 && (
        <SendCodeStep
          username={state.username}
          email={state.email}
          onDone={() => {
            setState({ step: 3, username: state.username });
          }}
        />
      )}
      {state.step === 3 && (
        <CodeStep
          username={state.username}
          onDone={(recoveryCode, questions) => {
            setState({ step: 4, username: state.username, recoveryCode, questions });
          }}
        />
      )}
      {state.step === 4 && (
        <PasswordStep
          username={state.username}
          recoveryCode={state.recoveryCode}
          questions={state.questions}
          onDone={() => {
            setState({ step: 5 });
          }}
        />
      )}
      {state.step === 5 && (
        <div role="status">
          <p>{t('recovery.changed')}</p>
          <Link to="/login" className="button primary">
            {t('recovery.home')}
          </Link>
        </div>
      )}
      {state.step < 5 && (
        <p>
          <Link to="/login">{t('recovery.back_to_login')}</Link>
        </p>
      )}
    </section>
  );
}

function UsernameStep({ onDone }: { onDone: (username: string, email: string) => void }) {
  const { t } = useTranslation();
  const spec = useSpecForm(recoveryUsername, { username: '' });
  return (
    <Form
      spec={spec}
      errorTitle={t('recovery.error')}
      onSubmit={async ({ username }) => {
        onDone(username, await recoveryEmail(username));
      }}
    >
      <TextField name="username" label={t('recovery.username')} autoComplete="username" autoFocus />
      <SubmitButton>{t('recovery.submit')}</SubmitButton>
    </Form>
  );
}

function SendCodeStep({ username, email, onDone }: { username: string; email: string; onDone: () => void }) {
  const { t } = useTranslation();
  const action = useApiAction();
  return (
    <div className="spec-form">
      <ServerErrors texts={action.errors} title={t('recovery.error')} />
      <p>
        {t('recovery.code_sent_to')} <strong>{email}</strong>
      </p>
      <button
        type="button"
        className="button primary"
        disabled={action.busy}
        onClick={() =>
          void action.run(async () => {
            await sendRecoveryCode(username);
            onDone();
          })
        }
      >
        {t('recovery.send_code')}
      </button>
      {action.busy && <LoadingOverlay />}
    </div>
  );
}

function CodeStep({
  username,
  onDone,
}: {
  username: string;
  onDone: (recoveryCode: string, questions: SecurityQuestion[]) => void;
}) {
  const { t } = useTranslation();
  const spec = useSpecForm(checkRecoveryCodeRequest, { username, recoveryCode: '' });
  const resend = useApiAction();
  const busy = resend.busy || spec.form.formState.isSubmitting;
  return (
    <>
      <ServerErrors texts={resend.errors} title={t('recovery.error')} />
      <Form
        spec={spec}
        errorTitle={t('recovery.error')}
        onSubmit={async (request) => {
          onDone(request.recoveryCode, await checkRecoveryCode(request));
        }}
      >
        <TextField
          name="recoveryCode"
          label={t('recovery.recovery_code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
        />
        <div className="buttons">
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void resend.run(() => sendRecoveryCode(username))}
          >
            {t('recovery.resend')}
          </button>
          <SubmitButton>{t('recovery.next')}</SubmitButton>
        </div>
      </Form>
    </>
  );
}

/** The answers' refusals in the user's language; the catalogue has them in English only. */
function inRecoveryWords(error: unknown, t: TFunction): unknown {
  if (!(error instanceof ApiError)) return error;
  const text = (code: number) => {
    if (code === errorCodes.securityAnswersNeeded) return t('recovery.answers_needed');
    if (code === errorCodes.securityAnswersWrong) return t('recovery.answers_wrong');
    if (code === errorCodes.secretLocked) return t('recovery.answers_locked');
    return undefined;
  };
  return new ApiError(
    error.status,
    error.errors.map((each) => ({ ...each, text: text(each.code) ?? each.text })),
  );
}

function PasswordStep({
  username,
  recoveryCode,
  questions,
  onDone,
}: {
  username: string;
  recoveryCode: string;
  questions: SecurityQuestion[];
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const hintId = useId();
  const spec = useSpecForm(resetPasswordRequest, {
    username,
    recoveryCode,
    userPassword: '',
    confirmPassword: '',
    // Only a user who chose questions sends answers; for everyone else the request is as before.
    ...(questions.length > 0
      ? { security_answers: questions.map(({ question_id }) => ({ question_id, answer: '' })) }
      : {}),
  });
  return (
    <Form
      spec={spec}
      errorTitle={t('recovery.error')}
      onSubmit={async (request) => {
        try {
          await resetPassword(request);
        } catch (error) {
          throw inRecoveryWords(error, t);
        }
        onDone();
      }}
    >
      {questions.length > 0 && (
        <fieldset aria-describedby={hintId}>
          <legend>{t('recovery.security_questions')}</legend>
          <p id={hintId} className="field-hint">
            {t('recovery.security_questions_hint')}
          </p>
          {questions.map((question, index) => (
            <TextField
              key={question.question_id}
              name={`security_answers.${String(index)}.answer`}
              label={question.question}
              autoComplete="off"
              autoFocus={index === 0}
            />
          ))}
        </fieldset>
      )}
      <NewPasswordField name="userPassword" label={t('recovery.password')} autoFocus={questions.length === 0} />
      <TextField
        name="confirmPassword"
        label={t('recovery.confirm_password')}
        type="password"
        autoComplete="new-password"
      />
      <SubmitButton>{t('recovery.save')}</SubmitButton>
    </Form>
  );
}
