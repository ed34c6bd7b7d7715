import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esploraClient, EsploraUnavailable } from './esplora.ts';
import { startFakeEsplora, type FakeEsplora } from '../testing/fake-esplora.ts';

let esplora: FakeEsplora;
beforeAll(async () => {
  esplora = await startFakeEsplora({ tipHeight: 2_000 });
});
afterAll(() => esplora.close());

const client = (timeoutMs = 5_000) => esploraClient({ baseUrl: esplora.url, timeoutMs });

describe('the Esplora client', () => {
  it('reads the tip height and what each transaction pays to the address, mempool and mined', async () => {
    const address = 'tb1qclientone';
    const first = esplora.pay(address, 1_000);
    esplora.mine();
    const second = esplora.pay(address, 2_500);
    expect(await client().tipHeight()).toBe(2_001);
    expect(await client().paymentsTo(address)).toEqual([
      { txid: second, sats: 2_500, blockHeight: null },
      { txid: first, sats: 1_000, blockHeight: 2_001 },
    ]);
    expect(await client().paymentsTo('tb1qnobody')).toEqual([]);
  });

  it('follows the pages of an address with more mined transactions than one page holds', async () => {
    const address = 'tb1qclientmany';
    for (let block = 0; block < 30; block++) {
      esplora.pay(address, 100 + block);
      esplora.mine();
    }
    const payments = await client().paymentsTo(address);
    expect(payments).toHaveLength(30);
    expect(payments.reduce((sum, payment) => sum + payment.sats, 0)).toBe(30 * 100 + (29 * 30) / 2);
  });

  it('gives up on a server that does not answer in time', async () => {
    esplora.delayMs = 500;
    try {
      await expect(client(100).tipHeight()).rejects.toBeInstanceOf(EsploraUnavailable);
    } finally {
      esplora.delayMs = 0;
    }
  });

  it("refuses an answer that is not Esplora's", async () => {
    await expect(
      esploraClient({ baseUrl: `${esplora.url}/nowhere`, timeoutMs: 1_000 }).paymentsTo('tb1qx'),
    ).rejects.toThrow(/HTTP 404/);
  });
});
