import type { ReactNode } from 'react';
import { useFormContext, type UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FieldShell } from './form.tsx';
import { diallingCodeChoices, digitsOnly, withDateDashes } from './geo.ts';

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
