import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../../lib/api.ts';

export type Loaded<T> = { state: 'loading' } | { state: 'failed'; reason: string } | { state: 'ready'; value: T };

/** Loads `load()` on mount and on `reload()`; a refusal becomes its shown text. */
export function useLoad<T>(load: () => Promise<T>): [Loaded<T>, () => void] {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (value) => {
        if (live) setLoaded({ state: 'ready', value });
      },
      (error: unknown) => {
        if (live)
          setLoaded({
            state: 'failed',
            reason: error instanceof ApiError ? error.texts.join(' ') : String(error),
          });
      },
    );
    return () => {
      live = false;
    };
    // `load` is a fresh closure each render; `round` is what asks for a reload.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [round]);
  const reload = useCallback(() => {
    setRound((value) => value + 1);
  }, []);
  return [loaded, reload];
}
