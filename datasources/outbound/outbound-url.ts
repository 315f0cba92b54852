/**
 * The rules a URL of a server we do not run must meet: a webhook endpoint URL, checked when an
 * endpoint is created or its URL changed (`checkOutboundUrl`) and again before every delivery
 * (`parseOutboundUrl`, used by exchange.ts), and an image search's `image_url`. Every failure is
 * the catalog's 400 `validation_error` naming the parameter (`url` unless told) and the rule, in
 * words the customer can act on.
 *
 * Always: the URL must parse, use http or https, and carry no user name or password (credentials
 * in a URL end up in logs and stored endpoint records; a receiver authenticates deliveries by their
 * signature instead). In production also: https only, and the host (an IP literal, or every address
 * the name resolves to) must be a public address (address-policy.ts).
 *
 * A name is resolved only in production, where its addresses are what the check is about; in
 * development any host is accepted, so a local receiver may be registered before it is up. A name
 * the resolver says does not exist (ENOTFOUND, ENODATA) is the customer's to fix: 400 "host does
 * not resolve". Any other resolver failure (EAI_AGAIN, a timeout) is ours and passing: 502
 * `upstream_error`, retryable. Passing this check is not a promise for later: the name may resolve
 * elsewhere by delivery time, which is why deliveries check again at connect time.
 */
import { type LookupFunction } from 'node:net';
import { ApiError, invalid } from '../../domain/errors';
import { addressRefusal, ipLiteralHost, resolveAll, systemLookup } from './address-policy';

export interface OutboundUrlOptions {
  /** Production rules (https only, public addresses only); decided by the caller from configuration. */
  production: boolean;
  /** Resolver with the signature of `dns.lookup` (default `dns.lookup`); tests inject one. */
  lookup?: LookupFunction;
  /** The request parameter the URL came in, named by every refusal (default `url`). */
  parameter?: string;
}

/** Resolver error codes meaning "this name has no address", as opposed to "the resolver failed". */
const NAME_DOES_NOT_RESOLVE = new Set(['ENOTFOUND', 'ENODATA']);

/** `url` parsed, when it meets the rules that need no resolution; otherwise throws the rule's validation error. */
export function parseOutboundUrl(url: string, production: boolean, parameter = 'url'): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid(parameter, 'must be an absolute http or https URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalid(parameter, 'must use http or https');
  if (parsed.username !== '' || parsed.password !== '') throw invalid(parameter, 'must not contain a user name or password');
  if (production && parsed.protocol !== 'https:') throw invalid(parameter, 'must use https in production');
  if (ipLiteralHost(parsed) === null && !isDnsName(parsed.hostname)) {
    throw invalid(parameter, `host name must be at most ${MAX_NAME_LENGTH} characters, each dot-separated label 1 to ${MAX_LABEL_LENGTH} (RFC 1035)`);
  }
  return parsed;
}

/** RFC 1035 §2.3.4: a name of at most 253 characters written with dots, labels of 1 to 63 (a final dot aside). */
const MAX_NAME_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;

function isDnsName(hostname: string): boolean {
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  return name.length <= MAX_NAME_LENGTH && name.split('.').every((label) => label.length >= 1 && label.length <= MAX_LABEL_LENGTH);
}

/** Checks an endpoint URL when it is created or changed; throws the validation error of the first rule it fails. */
export async function checkOutboundUrl(url: string, options: OutboundUrlOptions): Promise<void> {
  const parameter = options.parameter ?? 'url';
  const parsed = parseOutboundUrl(url, options.production, parameter);
  if (!options.production) return;
  const literal = ipLiteralHost(parsed);
  const addresses = literal === null ? await resolveHost(options.lookup ?? systemLookup, parsed.hostname, parameter) : [literal];
  const refusal = addressRefusal(addresses, parameter);
  if (refusal) throw refusal;
}

async function resolveHost(lookup: LookupFunction, hostname: string, parameter: string): ReturnType<typeof resolveAll> {
  let addresses;
  try {
    addresses = await resolveAll(lookup, hostname);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    if (NAME_DOES_NOT_RESOLVE.has(code)) throw invalid(parameter, `host does not resolve (${hostname})`);
    throw new ApiError('upstream_error', `${parameter}: the host name could not be resolved just now (${code}); try again`);
  }
  if (addresses.length === 0) throw invalid(parameter, `host does not resolve (${hostname})`);
  return addresses;
}
