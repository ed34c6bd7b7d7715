import { afterAll, describe, expect, it } from 'vitest';
import { postMessage } from './attempt.ts';
import { newSecret, startReceiver, type Receiver } from '../testing/webhooks.ts';

/** A rotated webhook's deliveries carry two signatures: receivers holding either secret accept them. */
const receivers: Receiver[] = [];
afterAll(() => Promise.all(receivers.map((each) => each.close())));

const policy = { allowPrivate: true, resolve: () => Promise.resolve(['127.0.0.1']) };
const options = { policy, timeoutMs: 5_000 };

async function receiving(secret: string) {
  const receiver = await startReceiver(secret);
  receivers.push(receiver);
  return receiver;
}
const message = (url: string, secret: string, previousSecret: string | null, id: string) =>
  postMessage({ url, secret, previousSecret, webhookId: id, body: '{"type":"return"}', sentAt: new Date() }, options);

describe('signing after a rotation', () => {
  it('signs with the new secret and the previous one, while the previous one is kept', async () => {
    const [previous, current] = [newSecret(), newSecret()];
    const holdingOld = await receiving(previous);
    const holdingNew = await receiving(current);
    expect((await message(holdingOld.url, current, previous, 'msg_a')).statusCode).toBe(200);
    expect((await message(holdingNew.url, current, previous, 'msg_b')).statusCode).toBe(200);
    expect([holdingOld.forged, holdingNew.forged]).toEqual([0, 0]);
  });

  it('signs with the new secret alone once the previous one is dropped', async () => {
    const [previous, current] = [newSecret(), newSecret()];
    const holdingOld = await receiving(previous);
    expect((await message(holdingOld.url, current, null, 'msg_c')).statusCode).toBe(401);
    expect(holdingOld.forged).toBe(1);
  });
});
