import { IDEMPOTENT_REPLAYED_HEADER } from '@peeks/contracts';
import {
  WALLET_CHANGES_CHANNEL,
  walletChangeFollower,
  type LedgerJobs,
  type LedgerSettings,
} from '@peeks/ledger-store';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { isIdempotentReplay } from '../features/payments/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** What every ledger command of this app runs under: the hold time and the app's clock. */
    ledgerSettings: LedgerSettings;
  }
}

/**
 * The ledger's wiring into the app: the settings every command runs under,
 * other processes' commits followed, and a replayed answer marked. The money
 * operations themselves are in features/payments.
 */
export const ledger = fp(
  async (app: FastifyInstance, options: { holdHours: number; cardFundsHoldHours: number; jobs: LedgerJobs }) => {
    app.decorate('ledgerSettings', {
      holdHours: options.holdHours,
      cardFundsHoldHours: options.cardFundsHoldHours,
      now: app.clock,
      jobs: options.jobs,
    });
    // Other processes' commits, announced: the group commit reads a wallet one of them moved once, not for a minute.
    const walletChanges = walletChangeFollower(app.db);
    await app.notifications.listen(WALLET_CHANGES_CHANNEL, walletChanges);
    if (app.notifications.listening) walletChanges.resumed();
    app.addHook('onClose', () => {
      walletChanges.lost();
    });
    app.addHook('onSend', (request, reply, payload, done) => {
      // A refusal is not the first request's answer, whatever was replayed on the way to it.
      if (isIdempotentReplay(request) && reply.statusCode < 400) void reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
      done(null, payload);
    });
  },
  { name: 'ledger', dependencies: ['sessions'] },
);
