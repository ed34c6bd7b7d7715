import { lazy, Suspense, useEffect, useState, type ReactElement } from 'react';
import { useSnapshot } from 'valtio';
import { dismissToast, shownToasts, TOAST_MS } from './shown-toasts.ts';

// The API features use: toast(text, tone) and the interval.
export { toast, TOAST_MS } from './shown-toasts.ts';

/** Without the library (its chunk failed to load), the toasts still go after their time; the live region said them. */
function TimedToasts(): ReactElement | null {
  const { list } = useSnapshot(shownToasts);
  useEffect(() => {
    const timers = list.map((each) =>
      setTimeout(() => {
        dismissToast(each.id);
      }, TOAST_MS),
    );
    return () => {
      for (const timer of timers) clearTimeout(timer);
    };
  }, [list]);
  return null;
}

// The library's toasts (Radix; see ToastList.tsx) are not in the first load: they load with the first toast.
const ToastList = lazy<() => ReactElement | null>(() =>
  import('./ToastList.tsx').catch(() => ({ default: TimedToasts })),
);

/**
 * Mounted once by the app. Screen readers hear each toast once, from this
 * live region, which is in the first load and so there before the first
 * toast: nothing said while the library loads is lost. The toasts seen
 * (dismissable, paused on hover and focus, F8 to reach them) come with
 * the library on the first toast.
 */
export function Toasts() {
  const { list } = useSnapshot(shownToasts);
  const [wanted, setWanted] = useState(false);
  if (list.length > 0 && !wanted) setWanted(true);
  return (
    <>
      <div className="visually-hidden" role="status" aria-live="polite" data-heard-behind-dialogs="">
        {list.map((each) => (
          <p key={each.id}>{each.text}</p>
        ))}
      </div>
      {wanted && (
        <Suspense fallback={null}>
          <ToastList />
        </Suspense>
      )}
    </>
  );
}
