import * as RadixToast from '@radix-ui/react-toast';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { dismissToast, shownToasts, TOAST_MS } from './shown-toasts.ts';

// Radix also announces each toast, through a copy of its text in a live region of its own that it removes
// after a second. The page's live region (toasts.tsx) has said the text already, so the copy goes to a node
// outside the document, where no one sees or hears it: each toast is shown once and heard once.
const unheard = document.createElement('div');

/**
 * The toasts as Radix shows them, in a region named "Notifications (F8)"
 * that F8 focuses: each for TOAST_MS, the time paused while the pointer or
 * the focus is on them; Escape, a swipe to the right or Dismiss closes one.
 * Loaded with the first toast (toasts.tsx).
 */
export default function ToastList() {
  const { t } = useTranslation();
  const { list } = useSnapshot(shownToasts);
  return (
    <RadixToast.Provider duration={TOAST_MS} swipeDirection="right" announcerContainer={unheard}>
      {list.map((each) => (
        <RadixToast.Root
          key={each.id}
          // Background: polite, as the live region is; a toast never interrupts.
          type="background"
          className={`toast toast-${each.tone}`}
          onOpenChange={(open) => {
            if (!open) dismissToast(each.id);
          }}
        >
          <RadixToast.Description className="toast-text">{each.text}</RadixToast.Description>
          <RadixToast.Close className="toast-dismiss" aria-label={t('toasts.dismiss')}>
            <span aria-hidden="true">×</span>
          </RadixToast.Close>
        </RadixToast.Root>
      ))}
      <RadixToast.Viewport className="toasts" label={t('toasts.region')} data-heard-behind-dialogs="" />
    </RadixToast.Provider>
  );
}
