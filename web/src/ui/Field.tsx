import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';

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
