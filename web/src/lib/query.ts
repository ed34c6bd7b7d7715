import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api.ts';

/**
 * The one cache of server data. Screens read through `useQuery` with their
 * feature's query keys; changes invalidate what they touch; the live feed
 * writes into it. A refusal is an answer, not a fault: only a dropped
 * connection (status 0) is tried once more.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (failures, error) => error instanceof ApiError && error.status === 0 && failures < 1,
      // The live feed keeps the money current; a window regaining focus asks for nothing.
      refetchOnWindowFocus: false,
    },
    mutations: { retry: false },
  },
});

/** What a failed read shows: the refusal's texts, or the thrown error's words. */
export const errorTexts = (error: unknown): readonly string[] =>
  error instanceof ApiError ? error.texts : [error instanceof Error ? error.message : String(error)];
