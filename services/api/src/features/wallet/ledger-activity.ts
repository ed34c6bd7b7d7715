import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseNotifications } from '../../plugins/database-notifications.ts';

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

/**
 * The ledger activity channel of the process's notification connection,
 * fanned out to subscribers by owner id. After the connection was lost,
 * every subscriber is told to resync.
 */
export class LedgerActivityListener {
  readonly #notifications: DatabaseNotifications;
  readonly #subscribers = new Map<string, Set<ActivitySubscriber>>();
  #listening: Promise<unknown> | null = null;
  readonly #log: FastifyBaseLogger;

  constructor(notifications: DatabaseNotifications, log: FastifyBaseLogger) {
    this.#notifications = notifications;
    this.#log = log;
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
    await (this.#listening ??= this.#notifications.listen(LEDGER_ACTIVITY_CHANNEL, {
      notified: (payload) => {
        this.#deliver(payload);
      },
      resumed: () => {
        this.#resyncAll();
      },
    }));
    return unsubscribe;
  }

  #deliver(payload: string | undefined): void {
    const activity = parseLedgerActivity(payload);
    if (!activity) {
      this.#log.warn({ payload }, 'live updates: a notification the listener does not understand');
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
