import { useCallback, useEffect, useState } from 'react';
import { ApiError } from './api.ts';

/** What a screen shows of a read: nothing yet, its answer, or the texts of its refusal. */
export type Loaded<T> =
  { status: 'loading' } | { status: 'ready'; value: T } | { status: 'failed'; errors: readonly string[] };

/**
 * Loaded on mount, and again when `key` changes; `reload` after a change
 * keeps what is shown until the new answer is in.
 */
export function useLoaded<T>(load: () => Promise<T>, key: unknown = 'once') {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let current = true;
    load()
      .then((value) => {
        if (current) setState({ status: 'ready', value });
      })
      .catch((error: unknown) => {
        if (current && error instanceof ApiError) setState({ status: 'failed', errors: error.texts });
      });
    return () => {
      current = false;
    };
    // `load` is rebuilt each render; `key` and `version` say when to load again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, version]);
  const reload = useCallback(() => {
    setState((each) => (each.status === 'failed' ? { status: 'loading' } : each));
    setVersion((each) => each + 1);
  }, []);
  return { state, reload };
}
