import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';

/** What listens on one channel. */
export interface ChannelListener {
  notified(payload: string | undefined): void;
  /** The connection is gone: until `resumed`, notifications may be missed. */
  lost?(): void;
  /** LISTEN is in place again after a loss. */
  resumed?(): void;
}

export interface NotificationOptions {
  /** A new, unconnected client for the dedicated LISTEN connection. */
  newClient: () => pg.Client;
  log: FastifyBaseLogger;
  /** The first wait before reconnecting; it doubles up to 30 s while the database stays away. */
  retryMs: number;
}

const MAX_RETRY_MS = 30_000;

/**
 * One LISTEN connection per API process for every channel it follows
 * (ledger activity for live sockets, session and payee changes for the
 * caches), opened with the first channel and kept until close(). A lost
 * connection is reopened with backoff; each channel's listeners are told
 * of the loss at once and of the return once LISTEN is in place again,
 * since what was committed meanwhile was announced to no one.
 */
export class DatabaseNotifications {
  readonly #options: NotificationOptions;
  readonly #channels = new Map<string, Set<ChannelListener>>();
  #client: pg.Client | null = null;
  #connecting: Promise<void> | null = null;
  #retryTimer: NodeJS.Timeout | null = null;
  #failures = 0;
  #closed = false;
  #listening = false;

  constructor(options: NotificationOptions) {
    this.#options = options;
  }

  /** Whether LISTEN is in place on every channel now: a notification committed from here on will arrive. */
  get listening(): boolean {
    return this.#listening;
  }

  /** Adds `listener` to `channel`; resolves once LISTEN is in place (or failed, and is being retried). */
  async listen(channel: string, listener: ChannelListener): Promise<void> {
    let listeners = this.#channels.get(channel);
    const isNew = !listeners;
    if (!listeners) this.#channels.set(channel, (listeners = new Set()));
    listeners.add(listener);
    if (this.#connecting) {
      await this.#connecting.catch(() => undefined);
      if (isNew && this.#client && this.#listening)
        await this.#client.query(`LISTEN ${channel}`).catch(() => undefined);
    } else {
      this.#connecting = this.#connect();
      await this.#connecting.catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listening = false;
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => undefined);
  }

  async #connect(): Promise<void> {
    const client = this.#options.newClient();
    this.#client = client;
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost || this.#closed || this.#client !== client) return;
      lost = true;
      this.#listening = false;
      this.#options.log.warn({ err: error }, 'database notifications: the LISTEN connection was lost; reconnecting');
      void client.end().catch(() => undefined);
      this.#each((listener) => listener.lost?.());
      this.#reconnectLater();
    };
    client.on('error', onLost);
    client.on('end', () => {
      onLost();
    });
    client.on('notification', (message) => {
      for (const listener of this.#channels.get(message.channel) ?? []) listener.notified(message.payload);
    });
    try {
      await client.connect();
      for (const channel of this.#channels.keys()) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      onLost(error as Error);
      throw error;
    }
    this.#listening = true;
    if (this.#failures > 0) this.#each((listener) => listener.resumed?.());
    this.#failures = 0;
  }

  #each(tell: (listener: ChannelListener) => void): void {
    for (const listeners of this.#channels.values()) for (const listener of listeners) tell(listener);
  }

  #reconnectLater(): void {
    const wait = Math.min(MAX_RETRY_MS, this.#options.retryMs * 2 ** this.#failures);
    this.#failures += 1;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      if (this.#closed) return;
      this.#connecting = this.#connect();
      this.#connecting.catch(() => undefined);
    }, wait);
    this.#retryTimer.unref();
  }
}
