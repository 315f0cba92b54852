/**
 * Which IP addresses an outbound request (a webhook delivery) may reach in production, and the
 * guard that applies the rule to what a host name resolves to at connect time.
 *
 * The rule is an allow-list, so a special-purpose range nobody thought of is refused rather than
 * reached: an address is allowed only when ipaddr.js classes it `unicast` (in none of the IANA
 * special-purpose ranges it knows: private, loopback, link-local, unique-local, carrier-grade NAT,
 * multicast, unspecified, broadcast, documentation, benchmarking, transition prefixes, …), it is not
 * a cloud metadata address, and, for IPv6, it lies in 2000::/3, the only global unicast space IANA
 * allocates (this also refuses the deprecated IPv4-compatible ::a.b.c.d, which ipaddr.js calls unicast).
 *
 * IPv4 carried inside IPv6 is judged as the IPv4 address it reaches: IPv4-mapped ::ffff:a.b.c.d (the
 * kernel connects such a socket to a.b.c.d, so ::ffff:127.0.0.1 is loopback) and the NAT64
 * well-known prefix 64:ff9b::/96 (a NAT64 gateway forwards to a.b.c.d; judging rather than refusing
 * keeps deliveries working from IPv6-only hosts behind DNS64). Other transition forms (6to4, Teredo,
 * local-use NAT64 64:ff9b:1::/48) are refused.
 *
 * A name is refused when ANY of its addresses is forbidden, rather than connecting to the allowed
 * ones only: a name that mixes public and private answers is an attack or a misconfiguration, the
 * endpoint check and the delivery then agree on the same answer, and Node's happy-eyeballs
 * connection never gets the chance to pick the private one.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { invalid, type ApiError } from '../../domain/errors';

/** The default resolver: every address of the name (`all: true` is set by the callers). */
export const systemLookup: LookupFunction = dnsLookup;

const NAT64_WELL_KNOWN_PREFIX = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
const IPV6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
const IPV4_COMPATIBLE_DOTTED = /^::\d{1,3}(?:\.\d{1,3}){3}$/;

/**
 * Cloud instance-metadata endpoints, named so a refusal says what the URL would have reached.
 * 168.63.129.16 (Azure WireServer) lies in public space and is refused only because it is listed
 * here; 169.254.169.254 (AWS, GCP, Azure, OCI, …), fd00:ec2::254 (AWS over IPv6) and
 * 100.100.100.200 (Alibaba) also fall in the link-local, unique-local and carrier-grade NAT ranges.
 */
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200', '168.63.129.16'].map((a) => ipaddr.parse(a).toNormalizedString()));

/** ipaddr.js range names, in words a customer reads in a validation error. */
const RANGE_WORDS: Record<string, string> = {
  private: 'private',
  loopback: 'loopback',
  linkLocal: 'link-local',
  uniqueLocal: 'unique-local',
  carrierGradeNat: 'carrier-grade NAT',
  multicast: 'multicast',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
};

/** The address a connection to `address` ends up reaching, for the IPv6 forms that carry an IPv4 address. */
function reachedAddress(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  if (address instanceof ipaddr.IPv6) {
    if (address.isIPv4MappedAddress()) return address.toIPv4Address();
    if (address.match(NAT64_WELL_KNOWN_PREFIX)) return new ipaddr.IPv4(address.toByteArray().slice(12));
  }
  return address;
}

/** Why production traffic may not go to `address` ('loopback', 'cloud metadata', …), or null when it may. */
export function forbiddenAddressKind(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  // ipaddr.js reads the dotted ::a.b.c.d as the IPv4-mapped ::ffff:a.b.c.d; it is the deprecated
  // IPv4-compatible form (RFC 4291 2.5.5.1), which no public receiver uses.
  if (IPV4_COMPATIBLE_DOTTED.test(address)) return 'IPv4-compatible (deprecated)';
  const reached = reachedAddress(ipaddr.parse(address));
  if (METADATA_ADDRESSES.has(reached.toNormalizedString())) return 'cloud metadata';
  const range = reached.range();
  if (range !== 'unicast') return RANGE_WORDS[range] ?? `special-purpose (${range})`;
  if (reached instanceof ipaddr.IPv6 && !reached.match(IPV6_GLOBAL_UNICAST)) return 'outside the global unicast space';
  return null;
}

/** The validation error (naming `parameter`) for the first forbidden address among `addresses`, or null when all are allowed. */
export function addressRefusal(addresses: readonly LookupAddress[], parameter = 'url'): ApiError | null {
  for (const { address } of addresses) {
    const kind = forbiddenAddressKind(address);
    if (kind !== null)
      return invalid(parameter, `must not resolve to a private, loopback, link-local or metadata address in production (resolved to ${address}: ${kind})`);
  }
  return null;
}

/** The IP address a URL names literally (brackets of IPv6 removed), or null when its host is a name. */
export function ipLiteralHost(url: URL): LookupAddress | null {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const family = isIP(host);
  return family === 0 ? null : { address: host, family };
}

/** Every address `lookup` gives for `hostname`, whether or not the lookup honoured `all: true`. */
function asAddressList(address: string | LookupAddress[], family: number | undefined): LookupAddress[] {
  return typeof address === 'string' ? [{ address, family: family ?? isIP(address) }] : address;
}

/**
 * `lookup` wrapped for the socket of a production request: it resolves every address of the name
 * and fails the connection, before any is opened, when one is forbidden (the error is the
 * `ApiError` of `addressRefusal`). Checking here, on the answer the socket then connects to, is
 * what defeats DNS rebinding: a name that was public when its endpoint was created and is private
 * now is refused at delivery. Node calls no `lookup` for an IP-literal host; callers check those
 * with `ipLiteralHost` and `addressRefusal`.
 */
export function guardedLookup(lookup: LookupFunction, parameter = 'url'): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, address, family) => {
      if (error) return callback(error, '');
      const addresses = asAddressList(address, family);
      const refusal = addressRefusal(addresses, parameter);
      if (refusal) return callback(refusal, '');
      const first = addresses[0];
      if (first === undefined) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
      return options.all ? callback(null, addresses) : callback(null, first.address, first.family);
    });
  };
}

/** Every address of `hostname`, through `lookup`. */
export function resolveAll(lookup: LookupFunction, hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    lookup(hostname, { all: true }, (error, address, family) => (error ? reject(error) : resolve(asAddressList(address, family))));
  });
}
