import { useTranslation } from 'react-i18next';

/** Grey bars where content is about to appear; one polite "Loading…" for screen readers instead of the bars. */
export function Skeleton({ lines = 3, label }: { lines?: number; label?: string }) {
  const { t } = useTranslation();
  return (
    <div className="skeleton" role="status" aria-live="polite">
      <span className="visually-hidden">{label ?? t('app.loading')}</span>
      {Array.from({ length: lines }, (_, index) => (
        <span key={index} className="skeleton-line" aria-hidden="true" />
      ))}
    </div>
  );
}
