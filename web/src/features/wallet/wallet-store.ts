import {
  COIN_PAGE_SIZE,
  coinListResponse,
  balanceResponse,
  transactionListResponse,
  LIVE_SESSION_ENDED,
  liveMessage,
  type LiveMessage,
} from '@peeks/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { proxy } from 'valtio';
import { callApi } from '../../lib/api.ts';
import { queryClient } from '../../lib/query.ts';

/** The wallet feature's query keys: every read of it sits under `all`. */
export const walletKeys = {
  all: ['wallet'] as const,
  balance: () => [...walletKeys.all, 'balance'] as const,
  recent: () => [...walletKeys.all, 'recent'] as const,
  withdrawDestinations: () => [...walletKeys.all, 'withdraw-destinations'] as const,
  pinSet: () => [...walletKeys.all, 'pin-set'] as const,
  coinPages: () => [...walletKeys.all, 'coins'] as const,
  coins: (page: number) => [...walletKeys.coinPages(), page] as const,
};

/** The dashboard shows this many of the newest transactions. */
export const RECENT_ENTRIES = 5;

/** The newest transactions, for the dashboard's recent activity. */
export const useRecentActivity = () =>
  useQuery({
    queryKey: walletKeys.recent(),
    queryFn: async ({ signal }) =>
      (
        await callApi('/account/transactions', transactionListResponse, {
          body: { offset: 0, limit: RECENT_ENTRIES },
          signal,
        })
      ).transactions,
  });

/** One page of the coins the wallet holds (the Coin Breakdown); the page shown stays while the next loads. */
export const useCoinPage = (page: number) =>
  useQuery({
    queryKey: walletKeys.coins(page),
    queryFn: ({ signal }) =>
      callApi('/wallet/list-coins', coinListResponse, {
        query: { offset: (page - 1) * COIN_PAGE_SIZE, limit: COIN_PAGE_SIZE },
        signal,
      }),
    placeholderData: keepPreviousData,
  });

/**
 * The signed-in user's balance (spec §3 Balance): read once, then kept
 * current by the live feed (GET /api/live pushes the balance after every
 * commit that touches the user's money), which writes it into the cache.
 */
const balanceQuery = queryOptions({
  queryKey: walletKeys.balance(),
  queryFn: async ({ signal }) => (await callApi('/account/balance', balanceResponse, { signal })).balance,
  // Never stale by age: the live feed and refreshBalance() say when it changed.
  staleTime: Infinity,
});

export const useBalance = () => useQuery(balanceQuery);

/** Reads the balance unless it is already known (the dashboard does, for whoever signs in). */
export const loadBalance = () =>
  queryClient.query(balanceQuery).catch(() => {
    // A screen showing the balance shows the refusal and its Try Again.
  });

/** The balance the page came with (lib/first-answers.ts), when it reads as GET /api/account/balance's answer. */
export function primeBalance(answer: unknown): void {
  const read = balanceResponse.safeParse(answer);
  if (read.success) queryClient.setQueryData(walletKeys.balance(), read.data.balance);
}

/** After money moved: the balance is read again, whether or not a screen shows it now. */
export const refreshBalance = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: walletKeys.balance(), refetchType: 'all' }),
    // The coins held moved with it; a breakdown on screen reads its page again.
    queryClient.invalidateQueries({ queryKey: walletKeys.coinPages() }),
  ]);

/** Whether the live feed is connected: client state, shown beside the figures. */
export const wallet = proxy({ live: false });

const liveListeners = new Set<(message: LiveMessage) => void>();

/** Hears every message of the live feed (a screen showing deposits or sales); returns the way to stop. */
export function onLiveMessage(listener: (message: LiveMessage) => void): () => void {
  liveListeners.add(listener);
  return () => {
    liveListeners.delete(listener);
  };
}

export function applyLiveMessage(text: string) {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return;
  }
  const message = liveMessage.safeParse(data);
  if (message.success) for (const listener of liveListeners) listener(message.data);
  if (message.success && message.data.type === 'balance') {
    queryClient.setQueryData(walletKeys.balance(), message.data.balance);
    void queryClient.invalidateQueries({ queryKey: walletKeys.coinPages() });
  }
}

/** Reconnects after a drop with a growing delay (1 s doubling to 30 s); stops when the session ended (4401) or on the returned stop(). */
export function connectLive(url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/live`) {
  let socket: WebSocket | null = null;
  let delay = 1000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let reconnecting = false;

  const open = () => {
    socket = new WebSocket(url);
    socket.onopen = () => {
      // After a drop, messages sent meanwhile are gone: read the balance afresh.
      if (reconnecting) void refreshBalance();
      reconnecting = true;
      wallet.live = true;
      delay = 1000;
    };
    socket.onmessage = (event) => {
      if (typeof event.data === 'string') applyLiveMessage(event.data);
    };
    socket.onclose = (event) => {
      wallet.live = false;
      if (stopped || event.code === LIVE_SESSION_ENDED) return;
      timer = setTimeout(open, delay);
      delay = Math.min(delay * 2, 30_000);
    };
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    socket?.close();
    wallet.live = false;
  };
}

export function forgetWallet() {
  queryClient.removeQueries({ queryKey: walletKeys.all });
}
