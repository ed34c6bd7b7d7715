import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface FakeTransaction {
  txid: string;
  outputs: { address: string; value: number }[];
  blockHeight: number | null;
}

/**
 * A fake Esplora server on loopback for tests: real HTTP, the routes the
 * watcher calls, answers shaped as Esplora's, and a chain the test drives
 * (payments into the mempool, blocks mined on top, transactions dropped).
 */
export interface FakeEsplora {
  url: string;
  /** A transaction paying `sats` to `address`, in the mempool; its txid. */
  pay(address: string, sats: number): string;
  /** Mines one block holding every mempool transaction (or only `txids`), then `more` empty blocks. */
  mine(options?: { txids?: string[]; more?: number }): void;
  /** Drops a mempool transaction, as a replacement or an eviction would. */
  drop(txid: string): void;
  /** Every later answer waits this long first (a slow server). */
  delayMs: number;
  /** How often the transactions of `address` have been asked for. */
  asked(address: string): number;
  close(): Promise<void>;
}

export async function startFakeEsplora(options: { tipHeight?: number } = {}): Promise<FakeEsplora> {
  let tipHeight = options.tipHeight ?? 100;
  const transactions: FakeTransaction[] = [];
  let counter = 0;
  const askedFor = new Map<string, number>();

  const view = (transaction: FakeTransaction) => ({
    txid: transaction.txid,
    status:
      transaction.blockHeight === null
        ? { confirmed: false }
        : { confirmed: true, block_height: transaction.blockHeight },
    vout: transaction.outputs.map((output) => ({ scriptpubkey_address: output.address, value: output.value })),
  });

  const answer = (path: string): { status: number; body: unknown } => {
    if (path === '/blocks/tip/height') return { status: 200, body: tipHeight };
    const address = /^\/address\/([^/]+)\/txs(?:\/chain\/([0-9a-f]+))?$/.exec(path);
    if (!address) return { status: 404, body: 'not found' };
    const watched = decodeURIComponent(address[1] ?? '');
    askedFor.set(watched, (askedFor.get(watched) ?? 0) + 1);
    const paying = transactions.filter((each) => each.outputs.some((output) => output.address === watched));
    // As Esplora: mempool first, then mined newest first, 25 mined a page, later pages after a given txid.
    const mempool = paying.filter((each) => each.blockHeight === null).reverse();
    const chain = paying
      .filter((each) => each.blockHeight !== null)
      .sort((a, b) => (b.blockHeight ?? 0) - (a.blockHeight ?? 0));
    const after = address[2];
    if (after !== undefined) {
      const from = chain.findIndex((each) => each.txid === after) + 1;
      return { status: 200, body: chain.slice(from, from + 25).map(view) };
    }
    return { status: 200, body: [...mempool, ...chain.slice(0, 25)].map(view) };
  };

  const fake: FakeEsplora = {
    url: '',
    delayMs: 0,
    asked: (address) => askedFor.get(address) ?? 0,
    pay(address, sats) {
      const txid = createHash('sha256')
        .update(`fake-${String(++counter)}-${address}-${String(sats)}`)
        .digest('hex');
      transactions.push({
        txid,
        outputs: [
          { address, value: sats },
          { address: 'tb1qchange', value: 12_345 },
        ],
        blockHeight: null,
      });
      return txid;
    },
    mine({ txids, more = 0 } = {}) {
      tipHeight += 1;
      for (const transaction of transactions) {
        if (transaction.blockHeight === null && (txids === undefined || txids.includes(transaction.txid)))
          transaction.blockHeight = tipHeight;
      }
      tipHeight += more;
    },
    drop(txid) {
      const index = transactions.findIndex((each) => each.txid === txid && each.blockHeight === null);
      if (index >= 0) transactions.splice(index, 1);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };

  const server: Server = createServer((request, response) => {
    const { status, body } =
      request.method === 'GET'
        ? answer(new URL(request.url ?? '/', 'http://esplora').pathname)
        : { status: 405, body: 'GET only' };
    setTimeout(() => {
      response
        .writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' })
        .end(typeof body === 'string' ? body : JSON.stringify(body));
    }, fake.delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  return fake;
}
