import { lookup } from 'node:dns/promises';
import { errorCodes } from '@peeks/contracts';
import ipaddr from 'ipaddr.js';
import { refuse } from '../../plugins/error-envelope.ts';

/** Every address a host name resolves to. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

export const resolveWithDns: ResolveHost = async (hostname) => (await lookup(hostname, { all: true, order: 'verbatim' })).map((each) => each.address);

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
function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? bare : null;
}

/**
 * Refuses a webhook URL whose host is, or resolves to, any non-public address
 * (SSRF: a merchant must not make the server call its own network). A host
 * that does not resolve is refused too: nothing could be delivered to it.
 * Delivery must check again at connect time, since DNS answers can change.
 */
export async function checkDestination(url: string, options: { allowPrivate: boolean; resolve: ResolveHost }): Promise<void> {
  if (options.allowPrivate) return;
  const { hostname } = new URL(url);
  const literal = literalAddress(hostname);
  let addresses: string[];
  if (literal === null) {
    try {
      addresses = await options.resolve(hostname);
    } catch {
      addresses = [];
    }
  } else {
    addresses = [literal];
  }
  if (addresses.length === 0) throw refuse(422, errorCodes.webhookHostUnresolved, { field: 'url' });
  if (!addresses.every(isPublicAddress)) throw refuse(422, errorCodes.webhookPrivateAddress, { field: 'url' });
}
