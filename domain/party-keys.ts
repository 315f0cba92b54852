/**
 * Party matching: when two records name the same owner, attorney or firm. Every party record
 * keeps the key computed here (`dedupe_key`), generated and ingested alike, and a party an office
 * record names is matched to the record with the same key before a new one is created.
 *
 * The rule (names go through `canonicalName`: folded, punctuation dropped, trailing legal forms
 * such as "Inc." or "LLC" removed; countries are ISO 3166-1 alpha-2 or unknown):
 * - an organization is its canonical name in its country: "Brand Properties, LLC" at
 *   "2827 Peachtree Rd. NE" and at "2827 Peachtree Road NE", both GA, US, is one owner (a company's
 *   street spelling changes between filings; its name and country do not);
 * - an individual is never matched by name alone: canonical name, country and the first word of
 *   the folded postcode (the city when there is no postcode), so "Pope, Christopher" at two streets
 *   of Hermosa Beach 90254 is one owner and a namesake elsewhere is another;
 * - a firm is its canonical name in its country;
 * - an attorney is their canonical name within their firm (or, without a firm, their country).
 */
import { canonicalName } from './party-names';
import type { EntityType } from './records';
import { foldedWords } from './text';

/** Where a party is, as far as the matching rule needs it. */
export interface PartyLocation {
  country_code: string | null;
  city?: string | null;
  postcode?: string | null;
}

const UNKNOWN = '-';

function area(location: PartyLocation): string {
  const postcode = foldedWords(location.postcode ?? '')[0];
  if (postcode !== undefined) return postcode;
  const city = foldedWords(location.city ?? '').join(' ');
  return city === '' ? UNKNOWN : city;
}

export function ownerDedupeKey(name: string, entityType: EntityType, location: PartyLocation): string {
  const country = location.country_code ?? UNKNOWN;
  if (entityType === 'individual') return `person|${canonicalName(name)}|${country}|${area(location)}`;
  return `org|${canonicalName(name)}|${country}`;
}

export function firmDedupeKey(name: string, countryCode: string | null): string {
  return `firm|${canonicalName(name)}|${countryCode ?? UNKNOWN}`;
}

/** `firmKey` is the firm's own dedupe key, or null for an attorney without a firm. */
export function attorneyDedupeKey(name: string, firmKey: string | null, countryCode: string | null): string {
  return `attorney|${canonicalName(name)}|${firmKey ?? countryCode ?? UNKNOWN}`;
}
