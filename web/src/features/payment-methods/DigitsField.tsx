import type { ReactNode } from 'react';
import { useFormContext } from 'react-hook-form';
import { FieldShell } from '../../ui/form.tsx';
import { digitsOnly } from '../../ui/geo.ts';

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
        <input
          id={inputId}
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
      )}
    </FieldShell>
  );
}
