import {
  encodeQrPayload,
  qrGenerateForm,
  qrPayload,
  readQrPayload,
  transferLinkForScan,
  sendFundForQr,
  sendFundRequest,
  transferLimitMinor,
  transferLinkForQr,
} from '@peeks/contracts';
import fc from 'fast-check';
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
    const payload = readQrPayload(JSON.stringify({ amt: '25', gid, uid: 12 }));
    expect(payload).toEqual({ amt: '25', gid, uid: 12, cur: 'USD', comment: '' });
    if (!payload) return;
    expect(sendFundRequest.parse(sendFundForQr(payload))).toEqual({ guser_id: gid, amount: 2500, currency: 'USD' });
    expect(sendFundForQr({ ...payload, comment: 'Order 9' })).toMatchObject({ comment: 'Order 9' });
  });

  it.each([
    ['7', 'USD', 700],
    ['12.5', 'CAD', 1250],
    ['0012.50', 'USD', 1250],
    ['500', 'CON', 50_000],
    ['3', 'IMP', 3],
  ] as const)('read amt %s %s as currency units, paid as %i minor units', (amt, cur, minor) => {
    const payload = readQrPayload(JSON.stringify({ amt, gid, uid: 12, cur }));
    expect(payload && sendFundForQr(payload).amount).toBe(minor);
  });

  it('read a JSON number amt as the same typed amount, so any client that writes 7 means seven', () => {
    expect(readQrPayload(JSON.stringify({ amt: 7, gid, uid: 12 }))?.amt).toBe('7');
    expect(readQrPayload(JSON.stringify({ amt: 12.5, gid, uid: 12 }))?.amt).toBe('12.5');
  });

  it('write a payload that reads back the same, amt canonical, and link to /transfer-fund in the same units', () => {
    const payload = qrPayload.parse({ amt: '012.50', gid, uid: 12, cur: 'CAD', comment: 'Order 9' });
    const text = encodeQrPayload(payload);
    expect(JSON.parse(text)).toEqual({ amt: '12.5', gid, uid: 12, cur: 'CAD', comment: 'Order 9' });
    expect(readQrPayload(text)).toEqual(payload);
    expect(transferLinkForQr(payload)).toBe(`/transfer-fund?gid=${gid}&uid=12&amt=12.5&cur=CAD&comment=Order+9`);
  });

  it('keep a round trip of encode and read the identity for any amount the form takes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 50_000 }),
        fc.constantFrom('USD', 'CAD', 'CON'),
        fc.string({ maxLength: 100 }).filter((text) => text.trim() === text && !/\p{Cc}/u.test(text)),
        (cents, cur, comment) => {
          const amt = `${String(Math.trunc(cents / 100))}.${String(cents % 100).padStart(2, '0')}`;
          const payload = qrPayload.parse({ amt, gid, uid: 3, cur, comment });
          const read = readQrPayload(encodeQrPayload(payload));
          expect(read).toEqual(payload);
          expect(read && sendFundForQr(read).amount).toBe(cents);
        },
      ),
    );
  });

  it.each([
    ['not JSON', 'amt=1'],
    ['no merchant', JSON.stringify({ amt: '1', uid: 12 })],
    ['more decimals than the currency', JSON.stringify({ amt: '1.005', gid, uid: 12 })],
    ['decimals of impressions', JSON.stringify({ amt: '1.5', gid, uid: 12, cur: 'IMP' })],
    ['above 500 units', JSON.stringify({ amt: '500.01', gid, uid: 12, cur: 'CAD' })],
    ['below 1 unit', JSON.stringify({ amt: '0.99', gid, uid: 12 })],
    ['minor units as the old payload had them', JSON.stringify({ amt: 2500, gid, uid: 12 })],
    ['an amount that is not a number', JSON.stringify({ amt: '1e3', gid, uid: 12 })],
    ['an unknown currency', JSON.stringify({ amt: '1', gid, uid: 12, cur: 'EUR' })],
    ['no amount', JSON.stringify({ gid, uid: 12 })],
  ])('refuse a QR code with %s', (_what, text) => {
    expect(readQrPayload(text)).toBeNull();
  });

  it('open the transfer page at amount 0 for a code that names the merchant but no amount, and no other', () => {
    expect(transferLinkForScan(JSON.stringify({ gid, uid: 12 }))).toBe(
      `/transfer-fund?gid=${gid}&uid=12&amt=0&cur=USD`,
    );
    expect(transferLinkForScan(JSON.stringify({ gid, uid: 12, cur: 'CAD', comment: 'Table 7' }))).toBe(
      `/transfer-fund?gid=${gid}&uid=12&amt=0&cur=CAD&comment=Table+7`,
    );
    expect(transferLinkForScan(JSON.stringify({ amt: '7', gid, uid: 12 }))).toBe(
      `/transfer-fund?gid=${gid}&uid=12&amt=7&cur=USD`,
    );
    for (const text of [
      JSON.stringify({ uid: 12 }),
      JSON.stringify({ gid, uid: 12, amt: '0' }),
      JSON.stringify({ gid, uid: 12, amt: null }),
      JSON.stringify({ gid, uid: 12, cur: 'EUR' }),
      JSON.stringify([gid]),
      'not json',
    ])
      expect(transferLinkForScan(text), text).toBeNull();
  });

  it.each([
    ['', 'Please enter amount'],
    ['12a', 'Please enter valid amount'],
    ['1.2.3', 'Please enter valid amount'],
    ['12345678901', 'Please enter at most 10 characters amount'],
    ['500.01', 'Please enter amount should be less than 500'],
    ['0.5', 'Please enter amount should be greater than 1'],
    ['1.001', 'Please enter valid amount'],
  ])('say the Amounts texts of §5 for a Generate QR code amount %j', (amount, message) => {
    const problems = qrGenerateForm.safeParse({ amount }).error?.issues.map((issue) => issue.message);
    expect(problems).toEqual([message]);
  });

  it('take 1 to 500 with one decimal point in the Generate QR code form, USD unless chosen', () => {
    expect(qrGenerateForm.parse({ amount: '1' })).toEqual({ amount: '1', currency: 'USD', comment: '' });
    expect(qrGenerateForm.parse({ amount: '500.00', currency: 'CON', comment: ' T7 ' })).toEqual({
      amount: '500',
      currency: 'CON',
      comment: 'T7',
    });
    expect(qrGenerateForm.parse({ amount: '12.' }).amount).toBe('12');
  });
});
