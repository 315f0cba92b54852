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
 *
 * Keys are stored, so a change of the fold (domain/text.ts) must reach the keys already written,
 * or the next ingestion of a stored party computes another key and creates a duplicate. The
 * store's keys carry PARTY_KEYS_VERSION: at open, workers/ingest/party-key-upgrade.ts rewrites the
 * keys and canonical names of a store of an older version with `refoldDedupeKey` and
 * `canonicalName`, once (a `meta` document records the version reached). Refolding the stored key
 * itself, rather than computing it again from the record, keeps it the key the party was created
 * under (the postcode an individual was matched by is not stored; a renamed record keeps its
 * key): the fold of an already folded text is the fold of the original whenever a new fold only
 * maps letters to letters, as the Latin letter table does.
 */
import { canonicalName } from './party-names';
import type { EntityType } from './records';
import { foldedWords, foldText } from './text';

/** Where a party is, as far as the matching rule needs it. */
export interface PartyLocation {
  country_code: string | null;
  city?: string | null;
  postcode?: string | null;
}

const UNKNOWN = '-';

/**
 * The fold the stored keys were computed with: 1, accents and case only; 2, also the Latin
 * letters without a decomposition (ø→o, ß→ss: domain/text.ts). Raise it with any change of the
 * fold, so stored keys are refolded.
 */
export const PARTY_KEYS_VERSION = 2;

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

/**
 * The key `key` (stored by any earlier version) has under the current fold: its name and area
 * parts folded again, its kind and country kept. A key already current is returned unchanged.
 */
export function refoldDedupeKey(key: string): string {
  const [kind, name = '', ...rest] = key.split('|');
  const canonical = canonicalName(name);
  switch (kind) {
    case 'person': {
      const [country = UNKNOWN, place = UNKNOWN] = rest;
      return `person|${canonical}|${country}|${place === UNKNOWN ? place : foldText(place)}`;
    }
    case 'attorney': {
      // Within a firm, the rest is the firm's own key.
      const scope = rest.join('|');
      return `attorney|${canonical}|${scope.startsWith('firm|') ? refoldDedupeKey(scope) : scope}`;
    }
    default:
      return [kind, canonical, ...rest].join('|');
  }
}
