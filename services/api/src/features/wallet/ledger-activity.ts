import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';

/** The channel migration 0010's trigger notifies on, once per transaction row written. */
export const LEDGER_ACTIVITY_CHANNEL = 'ledger_activity';

export interface LedgerActivity {
  txId: string;
  /** The parties (payer, payee) that are users or merchants: whose balance and activity changed. */
  ownerIds: string[];
}

/** "tx_id payer payee" (an absent party empty), as the trigger writes it; null for anything else. */
export function parseLedgerActivity(payload: string | undefined): LedgerActivity | null {
  const [txId, ...parties] = (payload ?? '').split(' ');
  if (!txId || parties.length !== 2) return null;
  return { txId, ownerIds: [...new Set(parties.filter(Boolean))] };
}

export interface ActivitySubscriber {
  /** A commit touched this owner's money. */
  activity(txId: string): void;
  /** The listener was down for a while: notifications may have been missed, so read afresh. */
  resync(): void;
}

export interface ListenerOptions {
  /** A new, unconnected client for the dedicated LISTEN connection. */
  newClient: () => pg.Client;
  log: FastifyBaseLogger;
  /** The first wait before reconnecting; it doubles up to 30 s while the database stays away. */
  retryMs: number;
}

const MAX_RETRY_MS = 30_000;

/**
 * One LISTEN connection per API process, opened when the first subscriber
 * comes and kept until close(). Notifications fan out to subscribers by
 * owner id. A lost connection is reopened with backoff, and every
 * subscriber is then told to resync, since what was committed meanwhile
 * was announced to no one.
 */
export class LedgerActivityListener {
  readonly #options: ListenerOptions;
  readonly #subscribers = new Map<string, Set<ActivitySubscriber>>();
  #client: pg.Client | null = null;
  #listening: Promise<void> | null = null;
  #retryTimer: NodeJS.Timeout | null = null;
  #failures = 0;
  #closed = false;

  constructor(options: ListenerOptions) {
    this.#options = options;
  }

  /** Adds a subscriber for `ownerId`; resolves once LISTEN is in place (or failed, and is being retried). */
  async subscribe(ownerId: string, subscriber: ActivitySubscriber): Promise<() => void> {
    let owners = this.#subscribers.get(ownerId);
    if (!owners) this.#subscribers.set(ownerId, (owners = new Set()));
    owners.add(subscriber);
    const unsubscribe = () => {
      owners.delete(subscriber);
      if (owners.size === 0 && this.#subscribers.get(ownerId) === owners) this.#subscribers.delete(ownerId);
    };
    await (this.#listening ??= this.#listen()).catch(() => undefined);
    return unsubscribe;
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => undefined);
  }

  async #listen(): Promise<void> {
    const client = this.#options.newClient();
    this.#client = client;
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost || this.#closed || this.#client !== client) return;
      lost = true;
      this.#options.log.warn({ err: error }, 'live updates: the LISTEN connection was lost; reconnecting');
      void client.end().catch(() => undefined);
      this.#reconnectLater();
    };
    client.on('error', onLost);
    client.on('end', () => { onLost(); });
    client.on('notification', (message) => {
      if (message.channel === LEDGER_ACTIVITY_CHANNEL) this.#deliver(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${LEDGER_ACTIVITY_CHANNEL}`);
    } catch (error) {
      onLost(error as Error);
      throw error;
    }
    if (this.#failures > 0) this.#resyncAll();
    this.#failures = 0;
  }

  #reconnectLater(): void {
    const wait = Math.min(MAX_RETRY_MS, this.#options.retryMs * 2 ** this.#failures);
    this.#failures += 1;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      if (this.#closed) return;
      this.#listening = this.#listen();
      this.#listening.catch(() => undefined);
    }, wait);
    this.#retryTimer.unref();
  }

  #deliver(payload: string | undefined): void {
    const activity = parseLedgerActivity(payload);
    if (!activity) {
      this.#options.log.warn({ payload }, 'live updates: a notification the listener does not understand');
      return;
    }
    for (const ownerId of activity.ownerIds) {
      for (const subscriber of this.#subscribers.get(ownerId) ?? []) subscriber.activity(activity.txId);
    }
  }

  #resyncAll(): void {
    for (const owners of this.#subscribers.values()) for (const subscriber of owners) subscriber.resync();
  }
}
