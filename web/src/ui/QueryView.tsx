import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorTexts } from '../lib/query.ts';
import { Skeleton } from './Skeleton.tsx';

interface QueryViewProps<T> {
  query: Pick<UseQueryResult<T>, 'data' | 'error' | 'isPending' | 'isError' | 'refetch'>;
  /** While nothing is in yet; a skeleton unless told. */
  loading?: ReactNode;
  /** A refused or failed read, with its texts and the way to try again; the texts and Try Again unless told. */
  failed?: (texts: readonly string[], retry: () => void) => ReactNode;
  /** What shows instead of the content when `isEmpty(data)` says there is nothing. */
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}

/**
 * The one place a read's states are drawn: a skeleton while it loads, its
 * refusal with Try Again, the empty state, else the content. A refetch keeps
 * the content shown until the new answer is in; a refetch that fails after
 * content was shown shows the refusal, as a first failure would.
 */
export function QueryView<T>({ query, loading, failed, empty, isEmpty, children }: QueryViewProps<T>) {
  const { t } = useTranslation();
  const retry = () => {
    void query.refetch();
  };
  if (query.isError) {
    const texts = errorTexts(query.error);
    return failed ? (
      <>{failed(texts, retry)}</>
    ) : (
      <div role="alert" className="server-errors">
        <ul>
          {texts.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
        <button type="button" className="button" onClick={retry}>
          {t('query.try_again')}
        </button>
      </div>
    );
  }
  if (query.isPending) return <>{loading ?? <Skeleton />}</>;
  const data = query.data as T;
  if (empty !== undefined && isEmpty?.(data)) return <>{empty}</>;
  return <>{children(data)}</>;
}
