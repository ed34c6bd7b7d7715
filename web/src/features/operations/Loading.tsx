import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/Button.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';
import type { Loaded } from './use-load.ts';

/** A skeleton while loading, the reason and Try Again when it failed, else the content. */
export function Loading<T>({
  loaded,
  retry,
  children,
}: {
  loaded: Loaded<T>;
  retry: () => void;
  children: (value: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (loaded.state === 'loading') return <Skeleton label={t('operations.loading')} />;
  if (loaded.state === 'failed')
    return (
      <div role="alert">
        <p>{t('operations.failed', { reason: loaded.reason })}</p>
        <Button onClick={retry}>{t('operations.retry')}</Button>
      </div>
    );
  return <>{children(loaded.value)}</>;
}
