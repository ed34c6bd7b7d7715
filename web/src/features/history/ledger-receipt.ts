import { checkpointResponse, inclusionProofResponse, logKeyResponse, type TransactionView } from '@peeks/contracts';
import { callApi } from '../../lib/api.ts';
import { checkReceipt, type LedgerReceipt } from '../../lib/ledger-log.ts';

/** A transaction's receipt from the ledger log, and whether it holds. */
export interface ReceiptResult {
  receipt: LedgerReceipt;
  /** The verifier key it was checked with. */
  vkey: string;
  /** Why it does not hold, or null when it does. */
  failure: string | null;
}

/** Fetches the newest checkpoint and the transaction's inclusion proof in it, and checks them. */
export async function ledgerReceipt(transaction: TransactionView): Promise<ReceiptResult> {
  const { vkey } = await callApi('/ledger/log-key', logKeyResponse);
  const { checkpoint } = await callApi('/ledger/checkpoint', checkpointResponse);
  const treeSize = checkpoint.split('\n')[1] ?? '';
  const proof = await callApi('/ledger/proof/inclusion', inclusionProofResponse, {
    query: { tx_id: transaction.tx_id, tree_size: treeSize },
  });
  const receipt = {
    transaction,
    leaf_index: proof.leaf_index,
    tree_size: proof.tree_size,
    leaf_data: proof.leaf_data,
    proof: proof.proof,
    checkpoint,
  };
  return { receipt, vkey, failure: await checkReceipt(receipt, vkey) };
}
