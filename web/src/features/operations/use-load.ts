import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useCallback, useId } from 'react';

/** The console's query keys: each read of a screen under `all`, which a change may invalidate as a whole. */
export const operationsKeys = {
  all: ['operations'] as const,
  read: (screenRead: string) => [...operationsKeys.all, screenRead] as const,
};

/** What a console screen holds of a read: the query itself, drawn by <Loading>. */
export type Loaded<T> = UseQueryResult<T>;

/** A console read: `load()` on mount and on `reload()`, its states drawn by <Loading>. */
export function useLoad<T>(load: () => Promise<T>): [Loaded<T>, () => void] {
  // Each read of each screen is its own entry; the screen says when to read again (after an operator's action).
  const query = useQuery({ queryKey: operationsKeys.read(useId()), queryFn: load });
  const { refetch } = query;
  const reload = useCallback(() => {
    void refetch();
  }, [refetch]);
  return [query, reload];
}
