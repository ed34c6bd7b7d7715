import { encodeQrPayload, qrPayload } from '@peeks/contracts';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, renderApp, resetSession, sessionUser } from '../../testing/app.tsx';
import { outcomeOfScan } from './qr-rules.ts';

const GID = '5d2c6a7e-3b1f-4c1e-8f3e-2a9b7c6d5e41';

describe('/scan-qr-code (spec §2 Scan QR code)', () => {
  beforeEach(resetSession);

  it('ignores a camera refused and offers to pick an image of the code', async () => {
    const getUserMedia = vi.fn(() => Promise.reject(new DOMException('denied', 'NotAllowedError')));
    vi.stubGlobal(
      'navigator',
      Object.assign(Object.create(navigator) as Navigator, { mediaDevices: { getUserMedia } }),
    );
    fakeApi({ 'GET /api/session': () => ok({ user: sessionUser(), csrfToken: 'csrf' }) });
    renderApp('/scan-qr-code');
    expect(await screen.findByRole('heading', { name: 'Scan QR code' })).toBeTruthy();
    await waitFor(() => {
      expect(getUserMedia).toHaveBeenCalledWith({ video: { facingMode: 'environment' }, audio: false });
    });
    expect(screen.getByText('Point your camera at the QR code, or pick an image of it.')).toBeTruthy();
    expect(screen.getByLabelText('Pick an image of a QR code')).toHaveProperty('accept', 'image/*');
    expect(screen.queryByRole('alert')).toBeNull();
    vi.unstubAllGlobals();
  });
});

describe('what a scanned code leads to', () => {
  it('a payment opens /transfer-fund with the same recipient and the amount in currency units', () => {
    const payload = qrPayload.parse({ amt: '12.5', gid: GID, uid: 12, cur: 'CAD', comment: 'Table 7' });
    expect(outcomeOfScan(encodeQrPayload(payload))).toEqual({
      go: `/transfer-fund?gid=${GID}&uid=12&amt=12.5&cur=CAD&comment=Table+7`,
    });
    expect(outcomeOfScan(JSON.stringify({ amt: 5, gid: GID, uid: 12 }))).toEqual({
      go: `/transfer-fund?gid=${GID}&uid=12&amt=5&cur=USD`,
    });
  });

  it('a code naming the merchant but no amount opens /transfer-fund at 0, in USD (spec §2 defaults)', () => {
    expect(outcomeOfScan(JSON.stringify({ gid: GID, uid: 12 }))).toEqual({
      go: `/transfer-fund?gid=${GID}&uid=12&amt=0&cur=USD`,
    });
  });

  it('anything else is the Error with Scan Again', () => {
    expect(outcomeOfScan('https://example.com')).toEqual({ error: 'not_a_payment' });
    expect(outcomeOfScan(`bitcoin:tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx`)).toEqual({ error: 'not_a_payment' });
  });
});
