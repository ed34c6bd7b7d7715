import { balanceResponse, LIVE_SESSION_ENDED, liveMessage, type Balance, type LiveMessage } from '@peeks/contracts';
import { proxy } from 'valtio';
import { callApi } from '../../lib/api.ts';

/**
 * The signed-in user's balance (spec §3 Balance): loaded once, then kept
 * current by the live feed (GET /api/live pushes the balance after every
 * commit that touches the user's money).
 */
export interface WalletState {
  balance: Balance | null;
  status: 'idle' | 'loading' | 'ready' | 'failed';
  live: boolean;
}

export const wallet = proxy<WalletState>({ balance: null, status: 'idle', live: false });

export async function loadBalance() {
  wallet.status = wallet.balance ? 'ready' : 'loading';
  try {
    wallet.balance = (await callApi('/account/balance', balanceResponse)).balance;
    wallet.status = 'ready';
  } catch {
    wallet.status = 'failed';
  }
}

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
    wallet.balance = message.data.balance;
    wallet.status = 'ready';
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
      if (reconnecting) void loadBalance();
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
  wallet.balance = null;
  wallet.status = 'idle';
}
