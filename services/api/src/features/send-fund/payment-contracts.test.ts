import { qrPayload, readQrPayload, sendFundForQr, sendFundRequest, transferLimitMinor } from '@peeks/contracts';
import { amountLimits, currencies, minorUnitsPerMajor } from '@peeks/ledger';
import { describe, expect, it } from 'vitest';

const gid = '2b1f3a4c-5d6e-4f70-8a9b-0c1d2e3f4a5b';

describe('the payment contracts', () => {
  it('cap a transfer where the ledger does, in every currency', () => {
    for (const currency of currencies)
      expect(transferLimitMinor[currency], currency).toBe(
        amountLimits.transfer.maxMajor * minorUnitsPerMajor[currency],
      );
  });

  it('read a scanned QR payload, with USD and no comment unless it says otherwise, and pay it as a send-fund', () => {
    const payload = readQrPayload(JSON.stringify({ amt: 2500, gid, uid: 12 }));
    expect(payload).toEqual({ amt: 2500, gid, uid: 12, cur: 'USD', comment: '' });
    if (!payload) return;
    expect(sendFundRequest.parse(sendFundForQr(payload))).toEqual({ guser_id: gid, amount: 2500, currency: 'USD' });
    expect(sendFundForQr({ ...payload, comment: 'Order 9' })).toMatchObject({ comment: 'Order 9' });
  });

  it.each([
    ['not JSON', 'amt=1'],
    ['no merchant', JSON.stringify({ amt: 100, uid: 12 })],
    ['a float amount', JSON.stringify({ amt: 1.5, gid, uid: 12 })],
    ['above 500 units', JSON.stringify({ amt: 500_01, gid, uid: 12, cur: 'CAD' })],
    ['an unknown currency', JSON.stringify({ amt: 100, gid, uid: 12, cur: 'EUR' })],
    ['no amount', JSON.stringify({ gid, uid: 12 })],
  ])('refuse a QR code with %s', (_what, text) => {
    expect(readQrPayload(text)).toBeNull();
  });

  it('say the Amounts texts of §5 for a QR amount', () => {
    const problems = qrPayload.safeParse({ amt: 500_01, gid, uid: 1 }).error?.issues.map((issue) => issue.message);
    expect(problems).toEqual(['Please enter amount should be less 500']);
  });
});
