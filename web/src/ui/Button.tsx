import type { ButtonHTMLAttributes } from 'react';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';

/** The class a button, or a link that looks like one, takes: `button` and its variant. */
export function buttonClass(variant: ButtonVariant = 'secondary', extra?: string): string {
  return ['button', variant === 'secondary' ? null : variant, extra].filter(Boolean).join(' ');
}

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  /** While its call runs: disabled, announced as busy, with a spinner beside its words. */
  busy?: boolean;
}

/** The one button of the app; `type="button"` unless told, so it never submits a form by accident. */
export function Button({
  variant,
  busy = false,
  className,
  type = 'button',
  disabled,
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={buttonClass(variant, className)}
      disabled={disabled === true || busy}
      aria-busy={busy || undefined}
      {...rest}
    >
      {busy && <span className="spinner small" aria-hidden="true" />}
      {children}
    </button>
  );
}
