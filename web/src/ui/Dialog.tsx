import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface DialogProps {
  title: ReactNode;
  children: ReactNode;
  /** Called on Escape, the backdrop or the close button; a static dialog (spec: "static backdrop", "non-dismissable") has none of these. */
  onClose?: () => void;
  /** Buttons at the bottom. */
  footer?: ReactNode;
  /** 'wide' for a log or a list that needs room (up to 48 rem); still the screen's width on a phone. */
  size?: 'wide';
}

/**
 * A modal dialog: focus moves in on open, Tab and Shift+Tab stay inside,
 * focus returns to where it was on close. Escape and the backdrop close it
 * only when `onClose` is given; without it the dialog is static.
 */
export function Dialog({ title, children, onClose, footer, size }: DialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  // Read while rendering: by the effect, a field's autoFocus has already taken the focus from the opener.
  const [returnTo] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));

  useEffect(() => {
    const element = panel.current;
    // A field that took the focus (autoFocus) keeps it: moving it would blur the field and show its error at once.
    if (!element?.contains(document.activeElement)) {
      const first = element?.querySelector<HTMLElement>(FOCUSABLE);
      (first ?? element)?.focus();
    }
    return () => returnTo?.focus();
  }, [returnTo]);

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Escape' && onClose) {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    const focusable = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    if (event.shiftKey && (document.activeElement === first || document.activeElement === panel.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <div
      className="dialog-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose?.();
      }}
    >
      <div
        ref={panel}
        className={size === 'wide' ? 'dialog dialog-wide' : 'dialog'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <header className="dialog-header">
          <h2 id={titleId}>{title}</h2>
          {onClose && (
            <button type="button" className="icon-button" aria-label={t('dialog.close')} onClick={onClose}>
              ×
            </button>
          )}
        </header>
        <div className="dialog-body">{children}</div>
        {footer && <footer className="dialog-footer">{footer}</footer>}
      </div>
    </div>,
    document.body,
  );
}
