import type { DatabaseNotifications } from './database-notifications.ts';

export interface NotifiedCacheOptions {
  /** The channel whose payloads are the keys of changed rows. */
  channel: string;
  /** Entries at most; the oldest go first. */
  maxEntries: number;
  /** How long an entry is trusted at most, notifications or not. */
  maxAgeMs: number;
}

/**
 * Rows this process read, kept while the database announces every change
 * to them on a channel (a trigger's NOTIFY, committed with the change).
 * An entry is only trusted while LISTEN is in place: when the connection
 * is lost everything is forgotten, and rows are read afresh until it is
 * back. A row read while a change was announced is not kept, since the
 * read may have seen the row before that change. A change made in another
 * process reaches this one a moment after its commit; one made here should
 * also be forgotten here at once (`forget`).
 */
export class NotifiedCache<Value> {
  readonly #options: NotifiedCacheOptions;
  readonly #entries = new Map<string, { value: Value; storedAt: number }>();
  #changes = 0;
  #trusted = false;

  constructor(options: NotifiedCacheOptions) {
    this.#options = options;
  }

  /** Starts following the channel; entries are kept from when LISTEN is in place. */
  async follow(notifications: DatabaseNotifications): Promise<void> {
    await notifications.listen(this.#options.channel, {
      notified: (key) => {
        this.forget(key ?? '');
      },
      lost: () => {
        this.#trusted = false;
        this.#changes += 1;
        this.#entries.clear();
      },
      resumed: () => {
        this.#trusted = true;
      },
    });
    this.#trusted = notifications.listening;
  }

  /** The cached value for `key`, else what `load` reads (null: nothing to keep). */
  async read(key: string, load: () => Promise<Value | null>): Promise<Value | null> {
    if (this.#trusted) {
      const entry = this.#entries.get(key);
      if (entry && Date.now() - entry.storedAt < this.#options.maxAgeMs) return entry.value;
    }
    const changes = this.#changes;
    const value = await load();
    if (value !== null && this.#trusted && changes === this.#changes) this.#store(key, value);
    return value;
  }

  /** Replaces the entry of a row this process has just written, if it has one. */
  replace(key: string, value: Value): void {
    const entry = this.#entries.get(key);
    if (entry) entry.value = value;
  }

  forget(key: string): void {
    this.#changes += 1;
    this.#entries.delete(key);
  }

  /** Forgets every entry whose value `matches`: rows this process changed by another key than the cache's. */
  forgetWhere(matches: (value: Value) => boolean): void {
    this.#changes += 1;
    for (const [key, entry] of this.#entries) if (matches(entry.value)) this.#entries.delete(key);
  }

  #store(key: string, value: Value): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.#options.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { value, storedAt: Date.now() });
  }
}
