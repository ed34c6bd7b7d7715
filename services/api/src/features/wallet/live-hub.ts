import { LIVE_SESSION_ENDED, type LiveMessage } from '@peeks/contracts';
import type { Database } from '@peeks/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { presentTransactions, walletOwnerOfSession } from '../payments/index.ts';
import { depositsOf } from '../deposits/index.ts';
import type { ActivitySubscriber, LedgerActivityListener } from './ledger-activity.ts';
import { balanceNow, transactionsNamed } from './queries.ts';

/** What the hub uses of a ws socket. */
export interface LiveSocket {
  readonly readyState: number;
  readonly OPEN: number;
  send(text: string): void;
  close(code: number, reason: string): void;
  ping(): void;
  terminate(): void;
  on(event: 'pong' | 'close', listener: () => void): unknown;
}

interface Watcher {
  ownerId: string;
  sessionKey: Buffer;
  /**
   * Sweeps since the socket last answered a ping. Gone only after two: after
   * a stalled event loop the sweep's timer runs before the pong waiting in
   * the socket's buffer is read, and one miss would end a healthy socket.
   */
  unanswered: number;
}

export interface HubOptions {
  db: Kysely<Database>;
  listener: LedgerActivityListener;
  log: FastifyBaseLogger;
  clock: () => Date;
  /** How often sockets are pinged and their sessions checked (a session may end in another process). */
  sweepMs: number;
}

/**
 * The sockets of one owner, sharing one subscription and one read per
 * commit: every tab of a user costs the database nothing more. Commits that
 * arrive while a read is in flight are gathered into the next read.
 */
class OwnerFeed implements ActivitySubscriber {
  readonly sockets = new Set<LiveSocket>();
  readonly #ownerId: string;
  readonly #options: HubOptions;
  #pending: string[] = [];
  #balanceStale = false;
  #flushing = false;
  /** Settles once LISTEN is in place for this owner; holds the way to stop listening. */
  ready: Promise<() => void> = Promise.resolve(() => undefined);

  constructor(ownerId: string, options: HubOptions) {
    this.#ownerId = ownerId;
    this.#options = options;
  }

  activity(txId: string): void {
    if (!this.#pending.includes(txId)) this.#pending.push(txId);
    this.#balanceStale = true;
    void this.#flush();
  }

  resync(): void {
    this.#balanceStale = true;
    void this.#flush();
  }

  async balanceMessage(): Promise<LiveMessage> {
    return { type: 'balance', balance: await balanceNow(this.#options.db, this.#ownerId, this.#options.clock()) };
  }

  async #flush(): Promise<void> {
    if (this.#flushing) return;
    this.#flushing = true;
    try {
      while (this.#balanceStale || this.#pending.length > 0) {
        const txIds = this.#pending;
        this.#pending = [];
        this.#balanceStale = false;
        const [records, deposits, balance] = await Promise.all([
          transactionsNamed(this.#options.db, this.#ownerId, txIds),
          depositsOf(this.#options.db, this.#ownerId, txIds),
          this.balanceMessage(),
        ]);
        for (const transaction of await presentTransactions(this.#options.db, this.#ownerId, records))
          this.#broadcast({ type: 'activity', transaction });
        for (const deposit of deposits) this.#broadcast({ type: 'deposit', deposit });
        this.#broadcast(balance);
      }
    } catch (error) {
      this.#options.log.error({ err: error, ownerId: this.#ownerId }, 'live updates: reading what changed failed');
    } finally {
      this.#flushing = false;
    }
  }

  #broadcast(message: LiveMessage): void {
    const text = JSON.stringify(message);
    for (const socket of this.sockets) sendTo(socket, text);
  }
}

function sendTo(socket: LiveSocket, text: string): void {
  if (socket.readyState === socket.OPEN) socket.send(text);
}

/**
 * The live sockets of this process, by owner. Sockets close when their
 * session ends: at once for a logout or merchant switch in this process
 * (sessionChanged), within a sweep for one elsewhere or an idle expiry.
 */
export class LiveHub {
  readonly #options: HubOptions;
  readonly #feeds = new Map<string, OwnerFeed>();
  readonly #watchers = new Map<LiveSocket, Watcher>();
  readonly #sweepTimer: NodeJS.Timeout;

  constructor(options: HubOptions) {
    this.#options = options;
    this.#sweepTimer = setInterval(() => void this.#sweep(), options.sweepMs);
    this.#sweepTimer.unref();
  }

  /** Starts pushing `ownerId`'s balance and activity to `socket`, beginning with the balance as it is now. */
  async join(socket: LiveSocket, ownerId: string, sessionKey: Buffer): Promise<void> {
    this.#watchers.set(socket, { ownerId, sessionKey, unanswered: 0 });
    socket.on('pong', () => {
      const watcher = this.#watchers.get(socket);
      if (watcher) watcher.unanswered = 0;
    });
    socket.on('close', () => {
      this.#leave(socket);
    });
    let feed = this.#feeds.get(ownerId);
    if (!feed) {
      feed = new OwnerFeed(ownerId, this.#options);
      feed.ready = this.#options.listener.subscribe(ownerId, feed);
      this.#feeds.set(ownerId, feed);
    }
    feed.sockets.add(socket);
    await feed.ready;
    // After LISTEN is in place, so that no commit falls between this read and the first notification.
    if (this.#watchers.has(socket)) sendTo(socket, JSON.stringify(await feed.balanceMessage()));
  }

  /** A session ended or now acts for someone else: its sockets close, and a reconnect finds out which. */
  sessionChanged(sessionKey: Buffer): void {
    for (const [socket, watcher] of this.#watchers) {
      if (watcher.sessionKey.equals(sessionKey)) socket.close(LIVE_SESSION_ENDED, 'session ended');
    }
  }

  close(): void {
    clearInterval(this.#sweepTimer);
  }

  #leave(socket: LiveSocket): void {
    const watcher = this.#watchers.get(socket);
    this.#watchers.delete(socket);
    const feed = watcher && this.#feeds.get(watcher.ownerId);
    if (!watcher || !feed) return;
    feed.sockets.delete(socket);
    if (feed.sockets.size === 0) {
      this.#feeds.delete(watcher.ownerId);
      void feed.ready.then((unsubscribe) => {
        unsubscribe();
      });
    }
  }

  async #sweep(): Promise<void> {
    for (const [socket, watcher] of this.#watchers) {
      if (watcher.unanswered >= 2) {
        socket.terminate();
        continue;
      }
      watcher.unanswered += 1;
      socket.ping();
    }
    // Only the sockets open now are judged by this read: one that joins while it runs is not in it.
    const checked = [...this.#watchers];
    const keys = [...new Set(checked.map(([, watcher]) => watcher.sessionKey.toString('hex')))].map((hex) =>
      Buffer.from(hex, 'hex'),
    );
    if (keys.length === 0) return;
    try {
      const live = await this.#options.db
        .selectFrom('sessions')
        .select(['session_key', 'user_id', 'merchant_id'])
        .where('session_key', 'in', keys)
        .where('expires_at', '>', this.#options.clock())
        .execute();
      const viewerOf = new Map(
        live.map((row) => [
          row.session_key.toString('hex'),
          row.user_id === null ? null : walletOwnerOfSession({ userId: row.user_id, merchantId: row.merchant_id }),
        ]),
      );
      for (const [socket, watcher] of checked) {
        if (this.#watchers.has(socket) && viewerOf.get(watcher.sessionKey.toString('hex')) !== watcher.ownerId)
          socket.close(LIVE_SESSION_ENDED, 'session ended');
      }
    } catch (error) {
      this.#options.log.warn({ err: error }, 'live updates: checking the sessions of open sockets failed');
    }
  }
}
