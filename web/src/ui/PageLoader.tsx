import { useTranslation } from 'react-i18next';

/** Shown while a screen's code or the session loads, or what `label` names (a list, a lookup). */
export function PageLoader({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <div className="page-loader" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{label ?? t('app.loading')}</span>
    </div>
  );
}

/** The page loader in index.html hides on document load or after 10 seconds (spec §2, §9). */
export const PAGE_LOADER_TIMEOUT_MS = 10_000;

export function hideStartupLoader(loader: HTMLElement | null) {
  if (!loader) return;
  const hide = () => {
    loader.remove();
  };
  if (document.readyState === 'complete') hide();
  else window.addEventListener('load', hide, { once: true });
  setTimeout(hide, PAGE_LOADER_TIMEOUT_MS);
}
