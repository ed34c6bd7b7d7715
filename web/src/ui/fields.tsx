import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';
import { Controller, useFormContext, useWatch, type UseFormRegisterReturn } from 'react-hook-form';
import { passwordRules } from '@peeks/contracts';
import { useTranslation } from 'react-i18next';
import { diallingCodeChoices, digitsOnly, withDateDashes, type Choice } from './geo.ts';
import { translatedValidation } from '../i18n/validation-texts.ts';

/**
 * The one field kit. <Field> wires a label, a control, a hint and an error
 * for assistive technology; <Input> and <Select> are it around a plain
 * control (filters, search, a dialog's own state). Inside a <Form>
 * (form.tsx: react-hook-form over the request's zod schema from
 * @peeks/contracts), the fields below register by `name` and show the
 * error the schema or the server gave that name.
 */

/** What a control needs to be labelled and described: its id, what describes it, whether it is invalid. */
export interface ControlProps {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': boolean;
}

interface FieldProps {
  label: ReactNode;
  hint?: ReactNode;
  /** The field's error; shown under it, announced (role="alert") and named by the control's aria-describedby. */
  error?: string | undefined;
  className?: string | undefined;
  children: (control: ControlProps) => ReactNode;
}

/**
 * Label, control, hint and error, wired for assistive technology. The error
 * line keeps its height when empty, so an error appearing on blur moves no
 * button under the pointer (a click right after an invalid field would land
 * on nothing).
 */
export function Field({ label, hint, error, className, children }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-describedby': describedBy, 'aria-invalid': error !== undefined })}
      {hint && (
        <small id={hintId} className="field-hint">
          {hint}
        </small>
      )}
      <FieldError id={errorId} error={error} />
    </div>
  );
}

/** An error line: always in the page (a live region must exist before its text), announced when filled. */
export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return (
    <p id={id} className="field-error" role={error ? 'alert' : undefined}>
      {error}
    </p>
  );
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
};

/** A labelled input outside the form kit (filters, search). */
export function Input({ label, hint, error, className, ...input }: InputProps) {
  return (
    <Field label={label} hint={hint} error={error} className={className}>
      {(control) => <input {...control} {...input} />}
    </Field>
  );
}

type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & {
  label: ReactNode;
  error?: string | undefined;
  options: readonly { value: string; label: string }[];
};

/** A labelled select outside the form kit. */
export function Select({ label, error, options, className, ...select }: SelectProps) {
  return (
    <Field label={label} error={error} className={className}>
      {(control) => (
        <select {...control} {...select}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** The error shown for a field: after it was touched or the form submitted (a server error always). */
export function useFieldError(name: string): string | undefined {
  const { t } = useTranslation();
  const { formState, getFieldState } = useFormContext();
  const state = getFieldState(name, formState);
  const error = state.error;
  if (!error) return undefined;
  const shown = state.isTouched || formState.isSubmitted || error.type === 'server' ? error.message : undefined;
  // The schema speaks English; the reader may not.
  return shown === undefined ? undefined : translatedValidation(shown, t);
}

interface FieldShellProps {
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  children: (ids: { inputId: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
  className?: string;
}

/** A form field: <Field> with the error the form holds for `name`. */
export function FieldShell({ name, label, hint, children, className }: FieldShellProps) {
  return (
    <Field label={label} hint={hint} error={useFieldError(name)} className={className}>
      {(control) =>
        children({
          inputId: control.id,
          describedBy: control['aria-describedby'],
          invalid: control['aria-invalid'],
        })
      }
    </Field>
  );
}

type FormInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'id'>;

export function TextField({
  name,
  label,
  hint,
  setValueAs,
  ...input
}: { name: string; label: ReactNode; hint?: ReactNode; setValueAs?: (value: string) => unknown } & FormInputProps) {
  const { register } = useFormContext();
  return (
    <FieldShell name={name} label={label} hint={hint}>
      {({ inputId, describedBy, invalid }) => (
        <input
          id={inputId}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          {...input}
          {...register(name, setValueAs ? { setValueAs } : {})}
        />
      )}
    </FieldShell>
  );
}

/**
 * A new password's field with its rules listed under it from the start (8 to
 * 12 characters, upper and lower case, a digit), each ticked as the typed
 * password meets it, so nobody learns the 12-character cap from a refusal.
 */
export function NewPasswordField({ name, label, ...input }: { name: string; label: ReactNode } & FormInputProps) {
  const { t } = useTranslation();
  const { control } = useFormContext();
  const value = useWatch({ control, name }) as unknown;
  const typed = typeof value === 'string' ? value : '';
  const rules = (Object.keys(passwordRules) as (keyof typeof passwordRules)[]).map((rule) => ({
    rule,
    met: passwordRules[rule](typed),
  }));
  return (
    <TextField
      name={name}
      label={label}
      type="password"
      autoComplete="new-password"
      {...input}
      hint={
        // Spans in the list roles: a hint is phrasing content (<small>), where <ul> may not go.
        <span className="password-rules" role="list" aria-label={t('password_rules.title')}>
          {rules.map(({ rule, met }) => (
            <span key={rule} role="listitem" className={met ? 'met' : undefined}>
              <span aria-hidden="true">{met ? '✓' : '○'}</span> {t(`password_rules.${rule}`)}
              <span className="visually-hidden"> {t(met ? 'password_rules.met' : 'password_rules.not_met')}</span>
            </span>
          ))}
        </span>
      }
    />
  );
}

export function SelectField({
  name,
  label,
  choices,
  placeholder,
  setValueAs,
  onChange,
  disabled,
}: {
  name: string;
  label: ReactNode;
  choices: readonly Choice[];
  placeholder: string;
  setValueAs?: (value: string) => unknown;
  onChange?: (value: string) => void;
  disabled?: boolean;
}) {
  const { register } = useFormContext();
  const registered = register(name, {
    ...(setValueAs ? { setValueAs } : {}),
    ...(onChange
      ? {
          onChange: (event: { target: { value: string } }) => {
            onChange(event.target.value);
          },
        }
      : {}),
  });
  return (
    <FieldShell name={name} label={label}>
      {({ inputId, describedBy, invalid }) => (
        <select id={inputId} aria-describedby={describedBy} aria-invalid={invalid} disabled={disabled} {...registered}>
          <option value="">{placeholder}</option>
          {choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      )}
    </FieldShell>
  );
}

/** A checkbox sent as 1 or 0, as the spec sends termsAccepted. */
export function CheckboxField({ name, label }: { name: string; label: ReactNode }) {
  const { control } = useFormContext();
  const inputId = useId();
  const error = useFieldError(name);
  const errorId = `${inputId}-error`;
  return (
    <div className="field field-checkbox">
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <input
            id={inputId}
            type="checkbox"
            ref={field.ref}
            name={field.name}
            checked={field.value === 1}
            onBlur={field.onBlur}
            onChange={(event) => {
              field.onChange(event.target.checked ? 1 : 0);
            }}
            aria-invalid={error !== undefined}
            aria-describedby={error ? errorId : undefined}
          />
        )}
      />
      <label htmlFor={inputId}>{label}</label>
      <FieldError id={errorId} error={error} />
    </div>
  );
}

/** A "DD-MM-YYYY" date with the dashes typed for the user (spec §2 birth date, §5 owner dob). */
export function DateField({ name, label }: { name: string; label: ReactNode }) {
  const { t } = useTranslation();
  const { register, getValues } = useFormContext();
  const registered = register(name);
  return (
    <FieldShell name={name} label={label} hint={t('signup.date_hint')}>
      {({ inputId, describedBy, invalid }) => (
        <input
          id={inputId}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          inputMode="numeric"
          placeholder="DD-MM-YYYY"
          autoComplete="off"
          {...registered}
          onChange={(event) => {
            const previous: unknown = getValues(name);
            event.target.value = withDateDashes(event.target.value, typeof previous === 'string' ? previous : '');
            void registered.onChange(event);
          }}
        />
      )}
    </FieldShell>
  );
}

/** A phone number, with its dialling-code selector when the form sends one; only digits can be typed (spec §5). */
export function PhoneField({ name, regionName, label }: { name: string; regionName?: string; label: string }) {
  const { t, i18n } = useTranslation();
  const { register } = useFormContext();
  const registered = register(name);
  return (
    <FieldShell name={name} label={label}>
      {({ inputId, describedBy, invalid }) => (
        <div className="phone-input">
          {regionName !== undefined && (
            <select aria-label={`${label}: ${t('signup.dialling_code')}`} {...register(regionName)}>
              {diallingCodeChoices(i18n.language).map((code) => (
                <option key={code.value} value={code.value}>
                  {code.label}
                </option>
              ))}
            </select>
          )}
          <DigitsInput registered={registered} id={inputId} describedBy={describedBy} invalid={invalid} type="tel" />
        </div>
      )}
    </FieldShell>
  );
}

/** A number typed with digits only (spec §5: amounts, account, transit, routing and unit numbers); anything else is dropped as typed. */
export function DigitsField({
  name,
  label,
  hint,
  setValueAs,
  onDigits,
  autoFocus,
}: {
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  setValueAs?: (value: string) => unknown;
  /** Told each new value, for a field that another one mirrors. */
  onDigits?: (value: string) => void;
  autoFocus?: boolean;
}) {
  const { register } = useFormContext();
  const registered = register(name, setValueAs ? { setValueAs } : {});
  return (
    <FieldShell name={name} label={label} hint={hint}>
      {({ inputId, describedBy, invalid }) => (
        <DigitsInput
          registered={registered}
          id={inputId}
          describedBy={describedBy}
          invalid={invalid}
          autoFocus={autoFocus}
          onDigits={onDigits}
        />
      )}
    </FieldShell>
  );
}

/** The input of a digits-only field: whatever else is typed or pasted is dropped before the form sees it. */
function DigitsInput({
  registered,
  id,
  describedBy,
  invalid,
  type,
  autoFocus,
  onDigits,
}: {
  registered: UseFormRegisterReturn;
  id: string;
  describedBy: string | undefined;
  invalid: boolean;
  type?: 'tel';
  autoFocus?: boolean | undefined;
  onDigits?: ((value: string) => void) | undefined;
}) {
  return (
    <input
      id={id}
      type={type}
      autoFocus={autoFocus}
      inputMode="numeric"
      autoComplete="off"
      aria-describedby={describedBy}
      aria-invalid={invalid}
      {...registered}
      onChange={(event) => {
        event.target.value = digitsOnly(event.target.value);
        onDigits?.(event.target.value);
        void registered.onChange(event);
      }}
    />
  );
}
