/**
 * The watcher's view of an Esplora-style HTTP API (Blockstream's esplora,
 * mempool.space, or the fake one the tests run): the payments made to an
 * address, and the height of the chain's tip. Only what deposits need.
 */

/** One transaction's outputs to the watched address, summed. */
export interface AddressPayment {
  txid: string;
  sats: number;
  /** Null while the transaction is in the mempool. */
  blockHeight: number | null;
}

export interface Esplora {
  /** Every transaction paying the address, in the mempool or mined, with what it pays there. */
  paymentsTo(address: string): Promise<AddressPayment[]>;
  tipHeight(): Promise<number>;
}

/** Esplora did not answer in time, or not with what it should: nothing can be said about the address now. */
export class EsploraUnavailable extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`esplora unavailable: ${reason}`, options);
    this.name = 'EsploraUnavailable';
  }
}

/** A mined page of `/address/:address/txs` holds this many transactions; a full one may have more behind it. */
const CHAIN_PAGE = 25;

interface EsploraTransaction {
  txid: string;
  status: { confirmed: boolean; block_height?: number };
  vout: { scriptpubkey_address?: string; value: number }[];
}

export function esploraClient({ baseUrl, timeoutMs }: { baseUrl: string; timeoutMs: number }): Esplora {
  // new URL('address/x', 'https://host/testnet/api/') keeps the base path; without the slash it would drop it.
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  const get = async (path: string): Promise<unknown> => {
    let response: Response;
    try {
      response = await fetch(new URL(path, base), { signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new EsploraUnavailable(`GET ${path}: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }
    const body = await response.text().catch((error: unknown) => {
      throw new EsploraUnavailable(`GET ${path}: the answer broke off`, { cause: error });
    });
    if (response.status !== 200) throw new EsploraUnavailable(`GET ${path}: HTTP ${response.status}`);
    try {
      return JSON.parse(body) as unknown;
    } catch (error) {
      throw new EsploraUnavailable(`GET ${path}: not JSON`, { cause: error });
    }
  };

  return {
    async paymentsTo(address) {
      const path = `address/${encodeURIComponent(address)}/txs`;
      const transactions = readTransactions(await get(path), path);
      // The first page has the mempool's transactions and the newest mined ones; older mined ones come by pages of 25.
      for (let page = transactions.filter((each) => each.status.confirmed); page.length === CHAIN_PAGE;) {
        const next = `${path}/chain/${page.at(-1)?.txid ?? ''}`;
        page = readTransactions(await get(next), next);
        transactions.push(...page);
      }
      return transactions
        .map((transaction) => ({
          txid: transaction.txid,
          sats: transaction.vout
            .filter((output) => output.scriptpubkey_address === address)
            .reduce((sum, output) => sum + output.value, 0),
          blockHeight: transaction.status.confirmed ? (transaction.status.block_height ?? null) : null,
        }))
        .filter((payment) => payment.sats > 0);
    },
    async tipHeight() {
      const height = await get('blocks/tip/height');
      if (typeof height !== 'number' || !Number.isSafeInteger(height) || height < 0)
        throw new EsploraUnavailable('GET blocks/tip/height: not a block height');
      return height;
    },
  };
}

function readTransactions(value: unknown, path: string): EsploraTransaction[] {
  const valid =
    Array.isArray(value) &&
    value.every((each: unknown) => {
      if (typeof each !== 'object' || each === null) return false;
      const { txid, status, vout } = each as Record<string, unknown>;
      return (
        typeof txid === 'string' &&
        typeof status === 'object' &&
        status !== null &&
        typeof (status as Record<string, unknown>).confirmed === 'boolean' &&
        Array.isArray(vout) &&
        vout.every(
          (output: unknown) =>
            typeof output === 'object' &&
            output !== null &&
            Number.isSafeInteger((output as Record<string, unknown>).value),
        )
      );
    });
  if (!valid) throw new EsploraUnavailable(`GET ${path}: not a list of transactions`);
  return value as EsploraTransaction[];
}
