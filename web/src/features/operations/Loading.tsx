import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/Button.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';

/** A skeleton while loading, the reason and Try Again when it failed, else the content: ui/QueryView in the console's words. */
export function Loading<T>({
  loaded,
  retry,
  children,
}: {
  loaded: UseQueryResult<T>;
  retry: () => void;
  children: (value: T) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <QueryView
      query={loaded}
      loading={<Skeleton label={t('operations.loading')} />}
      failed={(texts) => (
        <div role="alert">
          <p>{t('operations.failed', { reason: texts.join(' ') })}</p>
          <Button onClick={retry}>{t('operations.retry')}</Button>
        </div>
      )}
    >
      {children}
    </QueryView>
  );
}
