import { screen, within } from '@testing-library/react';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { ok, renderApp, resetSession } from '../../testing/app.tsx';
import { consoleApi } from './testing.ts';

// A log built here with node:crypto as RFC 9162 defines it, signed as the server signs.
const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const below = (n: number) => 2 ** Math.floor(Math.log2(n - 1));
const root = (leaves: Buffer[]): Buffer => {
  if (leaves.length === 1) return sha256(Buffer.of(0), leaves[0] ?? Buffer.alloc(0));
  const k = below(leaves.length);
  return sha256(Buffer.of(1), root(leaves.slice(0, k)), root(leaves.slice(k)));
};
const subproof = (m: number, leaves: Buffer[], whole: boolean): Buffer[] => {
  if (m === leaves.length) return whole ? [] : [root(leaves)];
  const k = below(leaves.length);
  return m <= k
    ? [...subproof(m, leaves.slice(0, k), whole), root(leaves.slice(k))]
    : [...subproof(m - k, leaves.slice(k), false), root(leaves.slice(0, k))];
};

const name = 'peeks-wallet.example/ledger';
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
const keyId = sha256(Buffer.from(name), Buffer.of(0x0a, 1), raw).subarray(0, 4);
const vkey = `${name}+${keyId.toString('hex')}+${Buffer.concat([Buffer.of(1), raw]).toString('base64')}`;
const signed = (leaves: Buffer[]) => {
  const text = `${name}\n${String(leaves.length)}\n${root(leaves).toString('base64')}\n`;
  const blob = Buffer.concat([keyId, sign(null, Buffer.from(text), privateKey)]).toString('base64');
  return `${text}\n\u2014 ${name} ${blob}\n`;
};
const leaves = Array.from({ length: 13 }, (_, index) => Buffer.alloc(32, index));
const other = leaves.map((leaf, index) => (index === 2 ? Buffer.alloc(32, 99) : leaf));

function ledgerLogApi() {
  return consoleApi({
    'GET /api/operations/ledger-log': () =>
      ok({
        vkey,
        tree_size: 13,
        unsequenced_events: 2,
        lag_seconds: 0.4,
        checkpoints: [{ tree_size: 13, created_at: '2026-11-28T21:00:00.000Z', checkpoint: signed(leaves) }],
        witnesses: [
          { witness: 'dir', tree_size: 13, attempted_at: '2026-11-28T21:00:00.000Z', delivered: true, error: null },
          {
            witness: 'url',
            tree_size: 13,
            attempted_at: '2026-11-28T21:00:00.000Z',
            delivered: false,
            error: 'the witness answered 503',
          },
        ],
      }),
    'GET /api/ledger/proof/consistency': (_body, url) =>
      ok({
        from: Number(url.searchParams.get('from')),
        to: 13,
        proof: subproof(Number(url.searchParams.get('from')), leaves, true).map((hash) => hash.toString('base64')),
      }),
  });
}

describe('/operations/ledger-log', () => {
  beforeEach(resetSession);

  it('shows the size, the lag, the checkpoints and each witness’s last delivery', async () => {
    ledgerLogApi();
    renderApp('/operations/ledger-log');
    expect(await screen.findByText('2 events, 0.4 s')).toBeTruthy();
    expect(screen.getByText(vkey)).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Latest checkpoints' })).getByText('13')).toBeTruthy();
    expect(screen.getByText('delivered')).toBeTruthy();
    expect(screen.getByText('the witness answered 503')).toBeTruthy();
  });

  it("proves today's log extends an auditor's checkpoint, and says when one does not", async () => {
    ledgerLogApi();
    const { user } = renderApp('/operations/ledger-log');
    const box = await screen.findByLabelText("An auditor's checkpoint");
    await user.click(box);
    await user.paste(signed(leaves.slice(0, 6)));
    await user.click(screen.getByRole('button', { name: 'Prove consistency' }));
    expect(await screen.findByText("Today's log (13 leaves) extends the checkpoint (6 leaves).")).toBeTruthy();
    await user.clear(box);
    await user.click(box);
    await user.paste(signed(other.slice(0, 6)));
    await user.click(screen.getByRole('button', { name: 'Prove consistency' }));
    expect(await screen.findByText('Not consistent: the log does not extend the checkpoint')).toBeTruthy();
  });
});
