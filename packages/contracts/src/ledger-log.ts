import { z } from 'zod';
import { successEnvelope } from './envelope.ts';
import { errorCatalogue, errorCodes } from './error-codes.ts';
import { say } from './fields.ts';
import { detailsRequest } from './wallet.ts';

const invalidArguments = { error: errorCatalogue[errorCodes.invalidArguments] };

/** The most leaves a proof is asked about: 2^53 − 1, where JavaScript's integers end. */
const treeSize = (label: string, min: number) =>
  z
    .string({ error: say.enter(label) })
    .regex(/^\d{1,16}$/, say.valid(label))
    .transform(Number)
    .refine((value) => Number.isSafeInteger(value) && value >= min, say.valid(label));

const base64Hash = z.string().describe('a 32-byte SHA-256 hash, base64');

/** GET /api/ledger/log-key: the verifier key of the log's checkpoints (c2sp.org/signed-note). */
export const logKeyResponse = successEnvelope({
  vkey: z.string().describe('<name>+<8 hex key id>+<base64(0x01 ‖ Ed25519 public key)>'),
});

/** GET /api/ledger/checkpoint: the newest signed checkpoint (c2sp.org/tlog-checkpoint in a signed note). */
export const checkpointResponse = successEnvelope({
  checkpoint: z
    .string()
    .describe('origin, tree size and base64 root, each on a line, then a blank line and signatures'),
});

/** GET /api/ledger/proof/inclusion?tx_id=…&tree_size=N */
export const inclusionProofQuery = z.object(
  { tx_id: detailsRequest.shape.id, tree_size: treeSize('tree_size', 1) },
  invalidArguments,
);

export const inclusionProofResponse = successEnvelope({
  leaf_index: z.number().int(),
  tree_size: z.number().int(),
  leaf_data: z.string().describe("the leaf's data, hex: the chain hash of the transaction's first event"),
  proof: z.array(base64Hash).describe('RFC 9162 inclusion proof, deepest first'),
});

/** GET /api/ledger/proof/consistency?from=M&to=N */
export const consistencyProofQuery = z.object({ from: treeSize('from', 1), to: treeSize('to', 1) }, invalidArguments);

export const consistencyProofResponse = successEnvelope({
  from: z.number().int(),
  to: z.number().int(),
  proof: z.array(base64Hash).describe('RFC 9162 consistency proof'),
});

/** GET /api/operations/ledger-log: the log as the operations console shows it. */
export const ledgerLogStatusResponse = successEnvelope({
  vkey: z.string(),
  tree_size: z.number().int(),
  /** Events committed and readable but not yet in the log, and how long the oldest has waited. */
  unsequenced_events: z.number().int(),
  lag_seconds: z.number(),
  checkpoints: z.array(z.object({ tree_size: z.number().int(), created_at: z.string(), checkpoint: z.string() })),
  witnesses: z.array(
    z.object({
      witness: z.enum(['dir', 'url']),
      tree_size: z.number().int(),
      attempted_at: z.string(),
      delivered: z.boolean(),
      error: z.string().nullable(),
    }),
  ),
});
