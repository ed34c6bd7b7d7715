import * as ecc from '@bitcoinerlab/secp256k1';
import { BIP32Factory, type BIP32Interface } from 'bip32';
import { address, initEccLib, networks, payments, type Network } from 'bitcoinjs-lib';
import bs58check from 'bs58check';
import { randomBytes } from 'node:crypto';

initEccLib(ecc);
const bip32 = BIP32Factory(ecc);

export type BitcoinNetwork = 'mainnet' | 'testnet';

export const networkOf = (name: BitcoinNetwork): Network => (name === 'mainnet' ? networks.bitcoin : networks.testnet);

/**
 * Version bytes of the extended public keys we take (SLIP-132). zpub/vpub
 * mark BIP84 keys; xpub/tpub are the same keys in BIP32's generic encoding,
 * which is what bip32 reads, so a zpub or vpub is re-encoded as one.
 */
const PUBLIC_VERSIONS: Record<number, { network: BitcoinNetwork; prefix: string }> = {
  0x0488b21e: { network: 'mainnet', prefix: 'xpub' },
  0x04b24746: { network: 'mainnet', prefix: 'zpub' },
  0x043587cf: { network: 'testnet', prefix: 'tpub' },
  0x045f1cf6: { network: 'testnet', prefix: 'vpub' },
};

/** A key that cannot serve: the message never quotes the key, which may be a private one pasted by mistake. */
export class BadExtendedKey extends Error {
  constructor(message: string) {
    super(`BITCOIN_XPUB ${message}`);
    this.name = 'BadExtendedKey';
  }
}

/**
 * The receiving chain (…/0) of a BIP84 account key: deposit addresses are
 * its children, native segwit (P2WPKH, bc1…/tb1…). The key must be at
 * account depth (m/84'/coin'/0', depth 3), as wallets export it.
 */
export class DepositAddresses {
  readonly network: BitcoinNetwork;
  private readonly receiving: BIP32Interface;

  constructor(extendedPublicKey: string, network: BitcoinNetwork) {
    this.network = network;
    const account = parseAccountKey(extendedPublicKey, network);
    this.receiving = account.derive(0);
  }

  /** The address at `index` of the receiving chain: the same index always gives the same address. */
  addressAt(index: number): string {
    if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31)
      throw new RangeError(`derivation index ${index} is outside 0..2^31-1`);
    const { address: derived } = payments.p2wpkh({
      pubkey: this.receiving.derive(index).publicKey,
      network: networkOf(this.network),
    });
    if (derived === undefined) throw new Error(`no address at index ${index}`);
    return derived;
  }
}

function parseAccountKey(extendedPublicKey: string, network: BitcoinNetwork): BIP32Interface {
  let payload: Uint8Array;
  try {
    payload = bs58check.decode(extendedPublicKey);
  } catch {
    throw new BadExtendedKey('is not a valid base58check extended key');
  }
  const version = new DataView(payload.buffer, payload.byteOffset, payload.byteLength).getUint32(0);
  const kind = PUBLIC_VERSIONS[version];
  if (kind === undefined) throw new BadExtendedKey('must be an extended public key (xpub, zpub, tpub or vpub)');
  if (kind.network !== network)
    throw new BadExtendedKey(`is a ${kind.network} key (${kind.prefix}) but BITCOIN_NETWORK is ${network}`);
  const generic = Uint8Array.from(payload);
  new DataView(generic.buffer).setUint32(0, networkOf(network).bip32.public);
  let key: BIP32Interface;
  try {
    key = bip32.fromBase58(bs58check.encode(generic), networkOf(network));
  } catch {
    throw new BadExtendedKey('is not a valid extended public key');
  }
  if (key.depth !== 3)
    throw new BadExtendedKey(`must be an account-level key (m/84'/coin'/0', depth 3), not depth ${key.depth}`);
  return key;
}

/**
 * A fresh testnet account key for a platform with none configured, as a
 * vpub. The seed lives only in this call: the platform needs the public key
 * alone to derive addresses, and a private key in the database would be
 * one more secret to lose. Coins sent to these testnet addresses cannot be
 * spent; configure BITCOIN_XPUB from a wallet you hold to keep them.
 */
export function generateTestnetAccountKey(): string {
  const account = bip32.fromSeed(randomBytes(32), networks.testnet).derivePath("m/84'/1'/0'").neutered();
  return asVpub(account.toBase58());
}

/** A tpub re-encoded with the BIP84 testnet version (vpub), so the key says what it derives. */
function asVpub(tpub: string): string {
  const payload = Uint8Array.from(bs58check.decode(tpub));
  new DataView(payload.buffer).setUint32(0, 0x045f1cf6);
  return bs58check.encode(payload);
}

/** Whether `candidate` is an address of `network` (bitcoinjs-lib can build its output script). */
export function isAddressOf(candidate: string, network: BitcoinNetwork): boolean {
  try {
    address.toOutputScript(candidate, networkOf(network));
    return true;
  } catch {
    return false;
  }
}
