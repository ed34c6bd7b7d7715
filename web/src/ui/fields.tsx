import type { ReactNode } from 'react';
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FieldShell } from './form.tsx';
import { DIALLING_CODES, digitsOnly, withDateDashes } from './geo.ts';

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
  const { t } = useTranslation();
  const { register } = useFormContext();
  const registered = register(name);
  return (
    <FieldShell name={name} label={label}>
      {({ inputId, describedBy, invalid }) => (
        <div className="phone-input">
          {regionName !== undefined && (
            <select aria-label={`${label}: ${t('signup.dialling_code')}`} {...register(regionName)}>
              {DIALLING_CODES.map((code) => (
                <option key={code.value} value={code.value}>
                  {code.label}
                </option>
              ))}
            </select>
          )}
          <input
            id={inputId}
            type="tel"
            inputMode="numeric"
            autoComplete="off"
            aria-describedby={describedBy}
            aria-invalid={invalid}
            {...registered}
            onChange={(event) => {
              event.target.value = digitsOnly(event.target.value);
              void registered.onChange(event);
            }}
          />
        </div>
      )}
    </FieldShell>
  );
}
