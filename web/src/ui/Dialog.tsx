import * as RadixDialog from '@radix-ui/react-dialog';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * What a modal leaves heard and usable behind it: the toasts' live region and
 * their region (ui/toasts.tsx), so a toast during a dialog is said and seen.
 * Inert would silence a live region.
 */
const HEARD_BEHIND_DIALOGS = '[data-heard-behind-dialogs]';

/**
 * Makes everything in the page inert except `keep` and what holds them, and
 * returns the undoing. Not aria-hidden's inertOthers: it counts its marks in
 * one table with the aria-hidden marks Radix makes, so where both mark the
 * same element (as they do once a live region is kept) undoing Radix's first
 * leaves inert behind. Only what this call made inert is undone, so dialogs
 * over dialogs undo in turn.
 */
function inertBeside(keep: readonly Element[]): () => void {
  const holding = new Set<Element>();
  for (const each of keep) for (let node: Element | null = each; node; node = node.parentElement) holding.add(node);
  const made: Element[] = [];
  const walk = (parent: Element) => {
    for (const child of parent.children) {
      if (keep.includes(child)) continue;
      if (holding.has(child)) walk(child);
      else if (!child.hasAttribute('inert') && child.tagName !== 'SCRIPT') {
        child.setAttribute('inert', '');
        made.push(child);
      }
    }
  };
  walk(document.body);
  return () => {
    for (const each of made) each.removeAttribute('inert');
  };
}

export interface DialogProps {
  title: ReactNode;
  children: ReactNode;
  /** Called on Escape, the backdrop or the close button; a static dialog (spec: "static backdrop", "non-dismissable") has none of these. */
  onClose?: () => void;
  /**
   * Escape's way out of a dialog without `onClose` that still offers one
   * (the pending agreement's Skip): Escape does what that button does.
   */
  onEscape?: () => void;
  /** Buttons at the bottom. */
  footer?: ReactNode;
  /** 'wide' for a log or a list that needs room (up to 48 rem); still the screen's width on a phone. */
  size?: 'wide';
}

/**
 * A modal dialog on Radix's: focus moves in on open, Tab and Shift+Tab stay
 * inside, the page behind is hidden from screen readers and pointers, and
 * focus returns to where it was on close. Escape and the backdrop close it
 * only when `onClose` is given; without it the dialog is static. A dialog
 * is open while it is rendered: the caller mounts it to open it.
 */
export function Dialog({ title, children, onClose, onEscape, footer, size }: DialogProps) {
  const { t } = useTranslation();
  // Read while rendering: by the time the dialog mounts, a field's autoFocus has already taken the focus from the
  // opener (Radix then leaves it there, unblurred), and Radix gives focus back only to a trigger of its own, which
  // these dialogs, opened by state, have not.
  const [returnTo] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  const escape = onClose ?? onEscape;
  // A state, not a ref: the portal puts the content in on a second render, after this component's first effects.
  const [content, setContent] = useState<HTMLDivElement | null>(null);
  // Radix hides the page behind with aria-hidden only, which leaves its links and buttons in the focus order for
  // anything that is not this dialog's Tab (axe: aria-hidden-focus); inert takes them out, as a modal means.
  useEffect(
    () => (content ? inertBeside([content, ...document.querySelectorAll(HEARD_BEHIND_DIALOGS)]) : undefined),
    [content],
  );

  return (
    <RadixDialog.Root
      open
      onOpenChange={(open) => {
        if (!open) onClose?.();
      }}
    >
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-backdrop">
          <RadixDialog.Content
            ref={setContent}
            className={size === 'wide' ? 'dialog dialog-wide' : 'dialog'}
            aria-modal="true"
            // The body says what the dialog is about; no separate description element.
            aria-describedby={undefined}
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              if (returnTo?.isConnected) returnTo.focus();
            }}
            onEscapeKeyDown={(event) => {
              if (onClose) return;
              event.preventDefault();
              escape?.();
            }}
            onPointerDownOutside={(event) => {
              if (!onClose) event.preventDefault();
            }}
            onInteractOutside={(event) => {
              if (!onClose) event.preventDefault();
            }}
          >
            <header className="dialog-header">
              <RadixDialog.Title>{title}</RadixDialog.Title>
              {onClose && (
                <RadixDialog.Close className="icon-button" aria-label={t('dialog.close')}>
                  ×
                </RadixDialog.Close>
              )}
            </header>
            <div className="dialog-body">{children}</div>
            {footer && <footer className="dialog-footer">{footer}</footer>}
          </RadixDialog.Content>
        </RadixDialog.Overlay>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
