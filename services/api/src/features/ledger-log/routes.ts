import {
  checkpointResponse,
  consistencyProofQuery,
  consistencyProofResponse,
  errorCodes,
  inclusionProofQuery,
  inclusionProofResponse,
  ledgerLogStatusResponse,
  logKeyResponse,
} from '@peeks/contracts';
import { consistencyProof, inclusionProof, latestCheckpoint, logSize, sequencerLag } from '@peeks/ledger-store';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { refuse } from '../../plugins/error-envelope.ts';
import { sessionWalletOwner } from '../payments/index.ts';
import { signedIn } from '../../plugins/sessions.ts';
import { findTransaction } from '../wallet/index.ts';
import { requireFinanceOperator } from '../operations/index.ts';
import {
  isFinanceOperator,
  recentCheckpoints,
  transactionExists,
  transactionLeaf,
  witnessDeliveries,
} from './queries.ts';

export interface LedgerLogRouteOptions {
  /** The verifier key of the log's checkpoints (c2sp.org/signed-note form). */
  vkey: string;
}

const base64 = (hashes: Buffer[]) => hashes.map((hash) => hash.toString('base64'));

/**
 * The ledger log (docs/architecture/ledger-log.md): its verifier key for
 * anyone, and for a signed-in person its newest checkpoint, an inclusion
 * proof of their own transaction, and consistency proofs between sizes.
 */
export const ledgerLogRoutes: FastifyPluginAsyncZod<LedgerLogRouteOptions> = (app, options) => {
  app.get(
    '/api/ledger/log-key',
    {
      config: {
        access: 'public',
        operation: {
          operationId: 'getLedgerLogKey',
          summary: "Get the verifier key of the ledger log's checkpoints",
          tag: 'ledger-log',
        },
      },
      schema: { response: { 200: logKeyResponse } },
    },
    () => Promise.resolve({ response: 'success' as const, vkey: options.vkey }),
  );

  app.get(
    '/api/ledger/checkpoint',
    {
      config: {
        operation: {
          operationId: 'getLedgerCheckpoint',
          summary: "Get the ledger log's newest signed checkpoint",
          tag: 'ledger-log',
          errors: [404],
        },
      },
      schema: { response: { 200: checkpointResponse } },
    },
    async () => {
      const checkpoint = await latestCheckpoint(app.db);
      if (!checkpoint) throw refuse(404, errorCodes.noCheckpointYet);
      return { response: 'success' as const, checkpoint: checkpoint.note };
    },
  );

  app.get(
    '/api/ledger/proof/inclusion',
    {
      config: {
        operation: {
          operationId: 'getLedgerInclusionProof',
          summary: "Prove one's own transaction is in the ledger log",
          tag: 'ledger-log',
          errors: [404, 422],
          description:
            "The leaf is the chain hash of the transaction's first event. Another person's transaction is 404; a finance operator may ask about any.",
        },
      },
      schema: { querystring: inclusionProofQuery, response: { 200: inclusionProofResponse } },
    },
    async (request) => {
      const { tx_id: txId, tree_size: treeSize } = request.query;
      const own = (await findTransaction(app.db, sessionWalletOwner(request), txId)) !== null;
      const visible =
        own || ((await isFinanceOperator(app.db, signedIn(request).userId)) && (await transactionExists(app.db, txId)));
      if (!visible) throw refuse(404, errorCodes.transactionNotFound, { field: 'tx_id' });
      if (treeSize > (await logSize(app.db))) throw refuse(422, errorCodes.logTooSmall, { field: 'tree_size' });
      const leaf = await transactionLeaf(app.db, txId);
      if (!leaf || leaf.leafIndex >= treeSize) throw refuse(422, errorCodes.notInLogYet, { field: 'tree_size' });
      return {
        response: 'success' as const,
        leaf_index: leaf.leafIndex,
        tree_size: treeSize,
        leaf_data: leaf.leafData.toString('hex'),
        proof: base64(await inclusionProof(app.db, leaf.leafIndex, treeSize)),
      };
    },
  );

  app.get(
    '/api/ledger/proof/consistency',
    {
      config: {
        operation: {
          operationId: 'getLedgerConsistencyProof',
          summary: 'Prove the ledger log of one size extends the log of a smaller one',
          tag: 'ledger-log',
          errors: [422],
        },
      },
      schema: { querystring: consistencyProofQuery, response: { 200: consistencyProofResponse } },
    },
    async (request) => {
      const { from, to } = request.query;
      if (from > to)
        throw refuse(400, errorCodes.invalidArguments, { field: 'from', message: 'from must not be more than to' });
      if (to > (await logSize(app.db))) throw refuse(422, errorCodes.logTooSmall, { field: 'to' });
      return { response: 'success' as const, from, to, proof: base64(await consistencyProof(app.db, from, to)) };
    },
  );

  app.get(
    '/api/operations/ledger-log',
    {
      config: {
        operation: {
          operationId: 'getLedgerLogStatus',
          summary: "Get the ledger log's size, lag, checkpoints and witnesses",
          tag: 'operations',
          caller: 'operator',
          description: 'The sequencer lag is how long the oldest event not yet in the log has waited.',
        },
      },
      onRequest: requireFinanceOperator,
      schema: { response: { 200: ledgerLogStatusResponse } },
    },
    async () => {
      const lag = await sequencerLag(app.db, app.clock());
      return {
        response: 'success' as const,
        vkey: options.vkey,
        tree_size: await logSize(app.db),
        unsequenced_events: lag.events,
        lag_seconds: lag.seconds,
        checkpoints: (await recentCheckpoints(app.db, 10)).map((row) => ({
          tree_size: row.tree_size,
          created_at: row.created_at.toISOString(),
          checkpoint: row.note,
        })),
        witnesses: (await witnessDeliveries(app.db)).map((row) => ({
          witness: row.witness as 'dir' | 'url',
          tree_size: row.tree_size,
          attempted_at: row.attempted_at.toISOString(),
          delivered: row.delivered,
          error: row.error,
        })),
      };
    },
  );

  return Promise.resolve();
};
