/**
 * Public identifiers: a kind prefix (`tm_`, `own_`, …) followed by a lowercase Crockford base32
 * body. Records that come from offices get stable IDs derived from (office, application number),
 * so re-ingesting a record never mints a second ID; customer objects get time-sortable random IDs.
 */
import { createHash, randomFillSync } from 'node:crypto';

/** The spec's identifier prefixes table, plus `org_` (organizations; internal, not in the table). */
export const ID_PREFIXES = {
  trademark: 'tm_',
  owner: 'own_',
  attorney: 'att_',
  firm: 'firm_',
  proceeding: 'prc_',
  entity: 'ent_',
  api_key: 'key_',
  feedback: 'fbk_',
  webhook_endpoint: 'whk_',
  alert: 'alt_',
  media: 'med_',
  image: 'img_',
  image_search: 'imgsrch_',
  request: 'req_',
  organization: 'org_',
  /** Not in the spec's table (it lists none for watches): chosen here, documented in the OpenAPI document. */
  watch: 'wch_',
  /** Not in the spec's table either: portfolios and saved searches. */
  portfolio: 'pf_',
  saved_search: 'ss_',
  /** Entries of an organization's event log (alert.created, watch.paused, …). */
  event: 'evt_',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;
export type IdPrefix = (typeof ID_PREFIXES)[IdKind];

const KIND_BY_PREFIX: ReadonlyMap<string, IdKind> = new Map((Object.keys(ID_PREFIXES) as IdKind[]).map((kind) => [ID_PREFIXES[kind], kind]));

/** Crockford base32, lowercase (no i, l, o, u: they read as digits or invite obscenities). */
const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/** Length of the body of a derived (stable) ID: 100 bits of a SHA-256. */
export const STABLE_ID_BODY_LENGTH = 20;
/** Length of the body of a random ID: 10 characters of milliseconds (50 bits) + 14 random (70 bits). */
export const RANDOM_ID_BODY_LENGTH = 24;

/** 1 to 64 lowercase Crockford base32 characters (longer than what we mint, on purpose: see below). */
const BODY = '[0-9a-hjkmnp-tv-z]{1,64}';
const BODY_PATTERN = new RegExp(`^${BODY}$`);

/** The rule of an ID's body, as error details state it. */
export const ID_BODY_RULE = '1 to 64 lowercase letters and digits other than i, l, o and u';

/** The pattern (regular-expression source) of a well-formed ID with `prefix`, as `isWellFormedId` checks it. */
export function idPattern(prefix: IdPrefix): string {
  return `^${prefix}${BODY}$`;
}

/** The first `length` base32 characters of `bytes` (5 bits each, most significant first). */
function base32(bytes: Uint8Array, length: number): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    if (out.length >= length) break;
    buffer = ((buffer << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5 && out.length < length) {
      bits -= 5;
      out += CROCKFORD[(buffer >>> bits) & 31];
    }
  }
  return out;
}

/**
 * A stable ID derived from an arbitrary key string: prefix + 20 base32 characters of
 * SHA-256(key). The same key always yields the same ID.
 */
export function stableId(prefix: IdPrefix, key: string): string {
  const digest = createHash('sha256').update(key).digest();
  return prefix + base32(digest, STABLE_ID_BODY_LENGTH);
}

/** The media ID of a mark's image (its representation): the same for every version of the mark. */
export function representationMediaId(trademarkId: string): string {
  return stableId('med_', `${trademarkId}:representation`);
}

/** Application numbers compare without spaces, separators' surrounding blanks or letter case. */
export function normalizeApplicationNumber(applicationNumber: string): string {
  return applicationNumber.replace(/\s+/g, '').toUpperCase();
}

/**
 * What an application, registration or international registration number is matched by: letter
 * case, spaces, the separators `/ . -` and leading zeros do not count, so `146682` finds the
 * USPTO's `0146682`, `18123456` the EUIPO's `018123456` and `2019000123` a `2019-000123`. Only the
 * numbers of one office are compared (the filters require `office`), and no office writes two of
 * its numbers alike but for those.
 */
export function numberMatchKey(number: string): string {
  return number
    .toUpperCase()
    .replace(/[\s/.-]+/g, '')
    .replace(/^0+(?=.)/, '');
}

/**
 * The stable ID of an office record: derived from (office code, application number), both
 * normalized, so `catalogId('tm_', 'us', '97 123456')` equals `catalogId('tm_', 'US', '97123456')`.
 */
export function catalogId(prefix: IdPrefix, officeCode: string, applicationNumber: string): string {
  return stableId(prefix, `${officeCode.trim().toUpperCase()}:${normalizeApplicationNumber(applicationNumber)}`);
}

/** Ten base32 characters of milliseconds: IDs that start with it sort by time. */
function timePart(nowMs: number): string {
  let time = '';
  let remaining = Math.max(0, Math.floor(nowMs));
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[remaining % 32] + time;
    remaining = Math.floor(remaining / 32);
  }
  return time;
}

/** The random bytes of one ID: 72 bits, of which the body uses 70. */
const RANDOM_ID_BYTES = 9;
/**
 * Random IDs take their bytes from a block filled from the CSPRNG: one fill costs about 3 µs here
 * whatever its size up to a few KB, and every request mints an ID (its request id). Node's
 * `randomUUID` keeps such a block for the same reason. Each process and thread has its own.
 */
const randomBlock = Buffer.alloc(RANDOM_ID_BYTES * 512);
let randomBlockUsed = randomBlock.length;

function nextRandomBytes(): Uint8Array {
  if (randomBlockUsed === randomBlock.length) {
    randomFillSync(randomBlock);
    randomBlockUsed = 0;
  }
  const bytes = randomBlock.subarray(randomBlockUsed, randomBlockUsed + RANDOM_ID_BYTES);
  randomBlockUsed += RANDOM_ID_BYTES;
  return bytes;
}

/** Time-sortable random ID: IDs minted later sort after earlier ones (to the millisecond). */
export function randomId(prefix: IdPrefix, nowMs: number = Date.now()): string {
  return prefix + timePart(nowMs) + base32(nextRandomBytes(), RANDOM_ID_BODY_LENGTH - 10);
}

/**
 * Time-sortable and derived: the time part of `atMs`, then SHA-256(key). What a worker produces
 * from one input (an alert from one change) gets the same ID however often the input is
 * processed, and still lists newest first like random IDs.
 */
export function derivedTimeId(prefix: IdPrefix, atMs: number, key: string): string {
  return prefix + timePart(atMs) + base32(createHash('sha256').update(key).digest(), RANDOM_ID_BODY_LENGTH - 10);
}

/** The kind of an ID by its prefix (the text up to and including the first `_`), or null. */
export function idKind(id: string): IdKind | null {
  const underscore = id.indexOf('_');
  if (underscore <= 0) return null;
  const kind = KIND_BY_PREFIX.get(id.slice(0, underscore + 1));
  if (kind === undefined || !BODY_PATTERN.test(id.slice(underscore + 1))) return null;
  return kind;
}

/**
 * True when `id` has exactly `prefix` and a well-formed body. Bodies of other lengths than the
 * 20 or 24 we mint are accepted on purpose, so IDs minted by other ingest paths keep working; the
 * prefix is what decides `id_type_mismatch`.
 */
export function isWellFormedId(id: string, prefix: IdPrefix): boolean {
  return id.startsWith(prefix) && idKind(id) === KIND_BY_PREFIX.get(prefix);
}

/** Lowercase hyphenated UUID text (any version). */
export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * A UUID derived from `key` (RFC 9562 version 8, "custom": SHA-256 bits with the version and
 * variant set), for rows a worker may produce again from the same input and must not duplicate.
 */
export function derivedUuid(key: string): string {
  const bytes = createHash('sha256').update(key).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
