import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may be sent. The API checks a URL when a merchant saves
 * it; the worker checks again when it connects, since a name's DNS answers
 * can change in between (DNS rebinding), and connects to the very address
 * it checked.
 */

/** Every address a host name resolves to. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

export const resolveWithDns: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, order: 'verbatim' })).map((each) => each.address);

/**
 * True for an address a webhook may be sent to: ordinary public unicast.
 * Private, loopback, link-local (cloud metadata at 169.254.169.254), carrier
 * NAT, multicast, reserved and unspecified ranges are all refused, and so are
 * IPv4 addresses dressed as IPv6 (::ffff:10.0.0.1), which process() unwraps.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** The URL's host as an address when it is a literal one ("[::1]" loses its brackets). */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? bare : null;
}

/** Why a destination is refused: it is, or resolves to, a non-public address; or it does not resolve. */
export type DestinationProblem = 'private address' | 'host unresolved';

export interface DestinationPolicy {
  /** WEBHOOK_ALLOW_PRIVATE=1: private and loopback hosts allowed, for local development only. */
  allowPrivate: boolean;
  resolve: ResolveHost;
}

/**
 * The addresses of a host a webhook may be sent to, or why it may not:
 * every answer must be public (one private answer among public ones is
 * enough for an attacker who controls the name's DNS).
 */
export async function checkedAddresses(
  hostname: string,
  policy: DestinationPolicy,
): Promise<string[] | DestinationProblem> {
  const literal = literalAddress(hostname);
  let addresses: string[];
  if (literal === null) {
    try {
      addresses = await policy.resolve(hostname);
    } catch {
      addresses = [];
    }
  } else {
    addresses = [literal];
  }
  if (addresses.length === 0) return 'host unresolved';
  if (!policy.allowPrivate && !addresses.every(isPublicAddress)) return 'private address';
  return addresses;
}

/** The problem with a webhook URL, or null when it may be saved. */
export async function destinationProblem(url: string, policy: DestinationPolicy): Promise<DestinationProblem | null> {
  if (policy.allowPrivate) return null;
  const checked = await checkedAddresses(new URL(url).hostname, policy);
  return typeof checked === 'string' ? checked : null;
}

/** A destination refused at connect time; recorded as the attempt's error. */
export class DestinationRefused extends Error {
  constructor(problem: DestinationProblem) {
    super(`destination refused: ${problem}`);
    this.name = 'DestinationRefused';
  }
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node:http that resolves, checks and hands the socket only
 * the addresses it checked: the connection cannot go anywhere the check
 * did not see. (A literal address in the URL is not looked up by node: the
 * caller checks it before the request.)
 */
export function checkedLookup(policy: DestinationPolicy) {
  return (hostname: string, options: { all?: boolean | undefined }, callback: LookupCallback): void => {
    checkedAddresses(hostname, policy).then(
      (checked) => {
        if (typeof checked === 'string') {
          callback(new DestinationRefused(checked), '', 4);
          return;
        }
        const found = checked.map((address) => ({ address, family: ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4 }));
        if (options.all) callback(null, found);
        else callback(null, found[0]?.address ?? '', found[0]?.family ?? 4);
      },
      (error: unknown) => {
        callback(error instanceof Error ? error : new Error(String(error)), '', 4);
      },
    );
  };
}
