import * as ecc from '@bitcoinerlab/secp256k1';
import { BIP32Factory } from 'bip32';
import { networks, payments } from 'bitcoinjs-lib';
import bs58check from 'bs58check';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BadExtendedKey, DepositAddresses, generateTestnetAccountKey, isAddressOf } from './hd-wallet.ts';

const bip32 = BIP32Factory(ecc);

/** BIP84's own test vector: the account key of "abandon ×11 about" and its first receiving addresses. */
const BIP84_ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';

function withVersion(key: string, version: number): string {
  const payload = Uint8Array.from(bs58check.decode(key));
  new DataView(payload.buffer).setUint32(0, version);
  return bs58check.encode(payload);
}

describe('deposit addresses from an extended public key', () => {
  it('derives BIP84 receiving addresses, as the BIP gives them, from a zpub or the same key as an xpub', () => {
    const fromZpub = new DepositAddresses(BIP84_ZPUB, 'mainnet');
    expect(fromZpub.addressAt(0)).toBe('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
    expect(fromZpub.addressAt(1)).toBe('bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g');
    const fromXpub = new DepositAddresses(withVersion(BIP84_ZPUB, 0x0488b21e), 'mainnet');
    expect(fromXpub.addressAt(1)).toBe(fromZpub.addressAt(1));
  });

  it("derives from a generated vpub (or its tpub) the addresses of m/84'/1'/0'/0/i of the same seed", () => {
    const seed = randomBytes(32);
    const account = bip32.fromSeed(seed, networks.testnet).derivePath("m/84'/1'/0'");
    const tpub = account.neutered().toBase58();
    const vpub = withVersion(tpub, 0x045f1cf6);
    for (const index of [0, 7, 2 ** 31 - 1]) {
      const expected = payments.p2wpkh({
        pubkey: account.derive(0).derive(index).publicKey,
        network: networks.testnet,
      }).address;
      expect(new DepositAddresses(vpub, 'testnet').addressAt(index)).toBe(expected);
      expect(new DepositAddresses(tpub, 'testnet').addressAt(index)).toBe(expected);
    }
  });

  it('generates a testnet account key whose addresses are tb1 addresses of the testnet only', () => {
    const key = generateTestnetAccountKey();
    expect(key).toMatch(/^vpub/);
    const address = new DepositAddresses(key, 'testnet').addressAt(3);
    expect(address).toMatch(/^tb1q[a-z0-9]{38}$/);
    expect(isAddressOf(address, 'testnet')).toBe(true);
    expect(isAddressOf(address, 'mainnet')).toBe(false);
    expect(generateTestnetAccountKey()).not.toBe(key);
  });

  it('refuses a private key, a key of the other network, a key at the wrong depth and garbage, without quoting them', () => {
    const root = bip32.fromSeed(randomBytes(32), networks.bitcoin);
    const xprv = root.derivePath("m/84'/0'/0'").toBase58();
    const refusals: [string, 'mainnet' | 'testnet', RegExp][] = [
      [xprv, 'mainnet', /must be an extended public key/],
      [BIP84_ZPUB, 'testnet', /is a mainnet key \(zpub\) but BITCOIN_NETWORK is testnet/],
      [root.neutered().toBase58(), 'mainnet', /account-level key .* not depth 0/],
      ['xpub-not-base58', 'mainnet', /not a valid base58check/],
    ];
    for (const [key, network, message] of refusals) {
      let error: unknown;
      try {
        new DepositAddresses(key, network);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(BadExtendedKey);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain(key);
    }
  });

  it("refuses an index outside BIP32's non-hardened range", () => {
    const addresses = new DepositAddresses(BIP84_ZPUB, 'mainnet');
    expect(() => addresses.addressAt(2 ** 31)).toThrow(RangeError);
    expect(() => addresses.addressAt(-1)).toThrow(RangeError);
  });
});
