/**
 * Owners (with corporate families, LEIs and listings), resolved entities, attorneys and firms.
 * Parties are generated before any mark and kept in memory: their number grows with the run
 * (about one owner per eight marks, one attorney per forty) but far slower than the marks and
 * their history, which are streamed.
 */
import { stableId } from '../../../domain/ids';
import type { AttorneyDoc, Company, EntityDoc, EntityType, FirmDoc, OwnerDoc, OwnerRelationship } from '../../../domain/records';
import { addMonths, dayOf, isoDate, isoTimestamp, TODAY } from './dates';
import { attorneyDedupeKey, firmDedupeKey, ownerDedupeKey } from '../../../domain/party-keys';
import { canonicalName } from '../../../domain/party-names';
import { companyName, companyStem, familyName, legalForm, nameVariant, partnershipName, personName } from './names';
import { OFFICE_PROFILES } from './offices';
import { mix32, Random, WeightedTable } from './random';

/** Marks filed before this day are first observed during the initial backfill, which lasts BACKFILL_DAYS. */
export const BACKFILL_START = dayOf('2020-01-15');
export const BACKFILL_DAYS = 30;

export const OWNERS_PER_MARK = 1 / 8;
export const ATTORNEYS_PER_MARK = 1 / 40;

const OWNER_COUNTRIES = new WeightedTable<string>(
  Object.entries({
    US: 24,
    CN: 16,
    DE: 6,
    JP: 6,
    GB: 5,
    FR: 4,
    KR: 4,
    IN: 4,
    IT: 3,
    BR: 3,
    CH: 2.5,
    CA: 2.5,
    AU: 2,
    MX: 2,
    ES: 2,
    NL: 1.5,
    SE: 1,
    TW: 1,
    HK: 0.8,
    SG: 0.6,
    TR: 1,
    IL: 0.5,
    BE: 0.5,
    AT: 0.6,
    DK: 0.5,
    IE: 0.4,
  }).map(([value, weight]) => ({ value, weight })),
);

const EXCHANGES: Record<string, string> = {
  US: 'NASDAQ',
  CN: 'SSE',
  DE: 'XETRA',
  JP: 'TSE',
  GB: 'LSE',
  FR: 'Euronext Paris',
  KR: 'KRX',
  IN: 'NSE',
  IT: 'Borsa Italiana',
  BR: 'B3',
  CH: 'SIX',
  CA: 'TSX',
  AU: 'ASX',
  MX: 'BMV',
  ES: 'BME',
  NL: 'Euronext Amsterdam',
  SE: 'Nasdaq Stockholm',
  TW: 'TWSE',
  HK: 'HKEX',
  SG: 'SGX',
  TR: 'Borsa Istanbul',
  IL: 'TASE',
  BE: 'Euronext Brussels',
  AT: 'Wiener Börse',
  DK: 'Nasdaq Copenhagen',
  IE: 'Euronext Dublin',
};
/** Markets whose tickers are numeric codes. */
const NUMERIC_TICKER_DIGITS: Record<string, number> = { JP: 4, CN: 6, KR: 6, HK: 4, TW: 4 };

/** Prefixes of LEI issuing organisations (LOUs); from memory, used only to look plausible. */
const LOU_PREFIXES = ['5493', '2138', '5299', '9695', '8156', '3912', '7245', '8945', '3003', '9845', '2549', '3157'];
const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** ISO 7064 MOD 97-10 check digits, as ISO 17442 prescribes for the last two LEI characters. */
export function leiCheckDigits(first18: string): string {
  let remainder = 0;
  for (const character of `${first18}00`) {
    const value = parseInt(character, 36);
    remainder = value >= 10 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97;
  }
  return String(98 - remainder).padStart(2, '0');
}

function lei(random: Random): string {
  let entityPart = '';
  for (let i = 0; i < 12; i++) entityPart += ALPHANUMERIC[random.int(0, 35)];
  const first18 = `${random.pick(LOU_PREFIXES)}00${entityPart}`;
  return first18 + leiCheckDigits(first18);
}

function ticker(random: Random, name: string, countryCode: string): string {
  const digits = NUMERIC_TICKER_DIGITS[countryCode];
  if (digits !== undefined) return random.digits(digits);
  const letters = canonicalName(name)
    .replace(/[^a-z]/g, '')
    .toUpperCase();
  const length = random.int(2, 4);
  return (letters.slice(0, length) || 'MQ').padEnd(length, 'X');
}

/** Parties are loaded in the week before the marks of the backfill, so no mark predates its owner. */
function backfillTimestamp(random: Random): string {
  return isoTimestamp(BACKFILL_START - random.int(1, 7), random.int(0, 86_399));
}

/** updated_at: usually the creation time, sometimes a later refresh (before the generator's today). */
function laterTimestamp(random: Random, createdAt: string): string {
  if (random.chance(0.6)) return createdAt;
  const createdDay = dayOf(createdAt.slice(0, 10));
  return isoTimestamp(random.int(createdDay + 1, TODAY - 1), random.int(0, 86_399));
}

export interface PartyCatalog {
  owners: OwnerDoc[];
  entities: EntityDoc[];
  attorneys: AttorneyDoc[];
  firms: FirmDoc[];
  /** Owner indexes per country; within a list, earlier owners file more marks. */
  ownersByCountry: ReadonlyMap<string, readonly number[]>;
  attorneysByCountry: ReadonlyMap<string, readonly number[]>;
}

interface FamilyMember {
  owner: OwnerDoc;
  parent: FamilyMember | null;
}

class PartyBuilder {
  readonly owners: OwnerDoc[] = [];
  readonly entities: EntityDoc[] = [];

  constructor(
    private readonly random: Random,
    private readonly seed: number,
  ) {}

  private newOwner(name: string, countryCode: string, entityType: EntityType): OwnerDoc {
    const createdAt = backfillTimestamp(this.random);
    const aliases: string[] = [];
    if (entityType !== 'individual' && this.random.chance(0.25)) aliases.push(nameVariant(name, this.random));
    const owner: OwnerDoc = {
      _id: stableId('own_', `generator:${this.seed}:owner:${this.owners.length}`),
      name,
      canonical_name: canonicalName(name),
      aliases,
      country_code: countryCode,
      entity_type: entityType,
      entity_id: '',
      entity_id_type: 'derived',
      companies: [],
      relationships: [],
      dedupe_key: ownerDedupeKey(name, entityType, { country_code: countryCode }),
      merged_into: null,
      created_at: createdAt,
      updated_at: laterTimestamp(this.random, createdAt),
    };
    this.owners.push(owner);
    return owner;
  }

  private company(owner: OwnerDoc, withLei: boolean, listed: boolean): Company {
    const countryCode = owner.country_code ?? 'US';
    return {
      source: listed ? 'exchange_listing' : 'gleif',
      ticker: listed ? ticker(this.random, owner.name, countryCode) : null,
      exchange: listed ? (EXCHANGES[countryCode] ?? 'NYSE') : null,
      lei: withLei ? lei(this.random) : null,
      entity_status: 'ACTIVE',
    };
  }

  private newEntity(members: readonly [OwnerDoc, ...OwnerDoc[]], entityIdType: OwnerDoc['entity_id_type']): void {
    const [head] = members;
    const headCompany = head.companies[0];
    const entity: EntityDoc = {
      _id: stableId('ent_', `generator:${this.seed}:entity:${this.entities.length}`),
      name: head.name,
      canonical_name: head.canonical_name,
      country_code: head.country_code,
      lei: headCompany?.lei ?? null,
      ticker: headCompany?.ticker ?? null,
      member_owner_ids: members.map((member) => member._id),
      merged_into: null,
      created_at: head.created_at,
      updated_at: head.updated_at,
    };
    for (const member of members) {
      member.entity_id = entity._id;
      member.entity_id_type = entityIdType;
    }
    this.entities.push(entity);
  }

  single(countryCode: string): void {
    const roll = this.random.next();
    let owner: OwnerDoc;
    if (roll < 0.16) owner = this.newOwner(personName(this.random, countryCode).display, countryCode, 'individual');
    else if (roll < 0.2) owner = this.newOwner(partnershipName(this.random, countryCode), countryCode, 'partnership');
    else {
      owner = this.newOwner(companyName(this.random, countryCode), countryCode, 'corporation');
      const listed = this.random.chance(0.03);
      if (listed || this.random.chance(0.12)) owner.companies.push(this.company(owner, true, listed));
    }
    this.newEntity([owner], 'derived');
  }

  /** One company recorded twice under different spellings (two owners, one entity). */
  spellingVariants(countryCode: string): void {
    const name = companyName(this.random, countryCode);
    const first = this.newOwner(name, countryCode, 'corporation');
    const second = this.newOwner(nameVariant(name, this.random), countryCode, 'corporation');
    this.newEntity([first, second], 'company_profile');
  }

  /** A group: top company, subsidiaries, sometimes sub-subsidiaries; every member has an LEI. */
  family(countryCode: string, childCount: number): void {
    const stem = companyStem(this.random);
    const top: FamilyMember = { owner: this.newOwner(`${stem} ${legalForm(this.random, countryCode)}`, countryCode, 'corporation'), parent: null };
    top.owner.companies.push(this.company(top.owner, true, this.random.chance(0.4)));
    const members: FamilyMember[] = [top];
    for (let i = 0; i < childCount; i++) {
      const parent = members.length > 2 && this.random.chance(0.25) ? (members[this.random.int(1, members.length - 1)] as FamilyMember) : top;
      const childCountry = this.random.chance(0.6) ? countryCode : OWNER_COUNTRIES.pick(this.random);
      const child: FamilyMember = { owner: this.newOwner(`${stem} ${legalForm(this.random, childCountry)}`, childCountry, 'corporation'), parent };
      child.owner.companies.push(this.company(child.owner, true, false));
      members.push(child);
      this.relate(child.owner, parent.owner, 'IS_DIRECTLY_CONSOLIDATED_BY');
      if (parent !== top) this.relate(child.owner, top.owner, 'IS_ULTIMATELY_CONSOLIDATED_BY');
    }
    this.newEntity([top.owner, ...members.slice(1).map((member) => member.owner)], 'lei');
  }

  /** Stores the relationship on both sides: the child's row points to its parent and vice versa. */
  private relate(child: OwnerDoc, parent: OwnerDoc, relationshipType: string): void {
    const ownershipPct = this.random.chance(0.1) ? null : this.random.chance(0.6) ? 100 : Math.round(this.random.int(5100, 9999)) / 100;
    const periodStart = isoDate(addMonths(dayOf('1995-01-01'), this.random.int(0, 360)));
    const row = (related: OwnerDoc, direction: OwnerRelationship['direction']): OwnerRelationship => ({
      related_owner_id: related._id,
      relationship_type: relationshipType,
      relationship_status: 'ACTIVE',
      ownership_pct: ownershipPct,
      period_start: periodStart,
      period_end: null,
      direction,
      source: 'gleif_level2',
    });
    child.relationships.push(row(parent, 'parent'));
    parent.relationships.push(row(child, 'child'));
  }
}

/** Countries where each office's direct filers and attorneys come from, weighted like the offices. */
const REPRESENTATION_COUNTRIES = new WeightedTable<string>(
  OFFICE_PROFILES.flatMap((profile) => profile.homeCountries.map((country) => ({ value: country, weight: profile.weight / profile.homeCountries.length }))),
);

type FirmNamePattern = (random: Random, countryCode: string) => string;
const FIRM_NAME_PATTERNS: readonly FirmNamePattern[] = [
  (random, country) => `${familyName(random, country)} & ${familyName(random, country)} LLP`,
  (random, country) => `${familyName(random, country)} IP`,
  (random, country) => `${familyName(random, country)} Patent & Trademark Attorneys`,
  (random, country) => `${familyName(random, country)} ${familyName(random, country)} & Partners`,
  (random, country) => `${familyName(random, country)} Intellectual Property`,
  (random) => `${companyStem(random)} IP Law Group`,
];

const US_BARS = ['US-NY', 'US-CA', 'US-TX', 'US-IL', 'US-VA', 'US-DC', 'US-MA', 'US-WA', 'US-FL', 'US-NJ'];

function asciiSlug(text: string): string {
  return canonicalName(text).replace(/ /g, '');
}

function buildFirmsAndAttorneys(random: Random, seed: number, attorneyCount: number): Pick<PartyCatalog, 'firms' | 'attorneys'> {
  const firms: FirmDoc[] = [];
  const attorneys: AttorneyDoc[] = [];
  const inFirms = Math.round(attorneyCount * 0.85);

  const addAttorney = (countryCode: string, firm: FirmDoc | null, domain: string | null): void => {
    const person = personName(random, countryCode);
    const createdAt = backfillTimestamp(random);
    const mailbox = `${asciiSlug(person.given)}.${asciiSlug(person.family)}`;
    const emailDomain = domain ?? `${asciiSlug(person.family)}law.com`;
    attorneys.push({
      _id: stableId('att_', `generator:${seed}:attorney:${attorneys.length}`),
      name: person.display,
      canonical_name: canonicalName(person.display),
      email: random.chance(0.7) ? `${mailbox}@${emailDomain}` : null,
      country_code: countryCode,
      firm_id: firm?._id ?? null,
      bar_admissions: countryCode === 'US' ? random.sample(US_BARS, random.int(1, 2)) : [countryCode],
      dedupe_key: attorneyDedupeKey(person.display, firm?.dedupe_key ?? null, countryCode),
      merged_into: null,
      created_at: createdAt,
      updated_at: laterTimestamp(random, createdAt),
    });
  };

  while (attorneys.length < inFirms) {
    // Pareto-like sizes: most firms have one to five attorneys, a few have up to 200.
    const size = Math.min(200, inFirms - attorneys.length, Math.floor(Math.pow(random.next() || 1e-9, -1 / 1.1)));
    const countryCode = REPRESENTATION_COUNTRIES.pick(random);
    const name = random.pick(FIRM_NAME_PATTERNS)(random, countryCode);
    const createdAt = backfillTimestamp(random);
    const firm: FirmDoc = {
      _id: stableId('firm_', `generator:${seed}:firm:${firms.length}`),
      name,
      canonical_name: canonicalName(name),
      country_code: countryCode,
      aliases: random.chance(0.3) ? [{ name: name.toUpperCase(), type: 'office_spelling', source_office: random.pick(OFFICE_PROFILES).code }] : [],
      dedupe_key: firmDedupeKey(name, countryCode),
      merged_into: null,
      created_at: createdAt,
      updated_at: laterTimestamp(random, createdAt),
    };
    firms.push(firm);
    const domain = `${asciiSlug(name).slice(0, 24)}.com`;
    for (let i = 0; i < size; i++) addAttorney(countryCode, firm, domain);
  }
  while (attorneys.length < attorneyCount) addAttorney(REPRESENTATION_COUNTRIES.pick(random), null, null);
  return { firms, attorneys };
}

function indexByCountry(docs: ReadonlyArray<{ country_code: string | null }>): Map<string, number[]> {
  const byCountry = new Map<string, number[]>();
  docs.forEach((doc, index) => {
    const country = doc.country_code ?? 'US';
    const list = byCountry.get(country);
    if (list === undefined) byCountry.set(country, [index]);
    else list.push(index);
  });
  return byCountry;
}

export function partyCounts(marks: number): { owners: number; attorneys: number } {
  return { owners: Math.max(12, Math.ceil(marks * OWNERS_PER_MARK)), attorneys: Math.max(6, Math.ceil(marks * ATTORNEYS_PER_MARK)) };
}

export function generateParties(seed: number, marks: number): PartyCatalog {
  const random = new Random(mix32(seed) ^ 0x0a11ce);
  const counts = partyCounts(marks);
  const builder = new PartyBuilder(random.fork(1), seed);
  const shapeRandom = random.fork(2);
  while (builder.owners.length < counts.owners) {
    const countryCode = OWNER_COUNTRIES.pick(shapeRandom);
    const roll = shapeRandom.next();
    const room = counts.owners - builder.owners.length;
    if (roll < 0.05 && room >= 3) builder.family(countryCode, Math.min(room - 1, 1 + shapeRandom.skewedIndex(10, 2.5)));
    else if (roll < 0.08 && room >= 2) builder.spellingVariants(countryCode);
    else builder.single(countryCode);
  }
  const { firms, attorneys } = buildFirmsAndAttorneys(random.fork(3), seed, counts.attorneys);
  return {
    owners: builder.owners,
    entities: builder.entities,
    attorneys,
    firms,
    ownersByCountry: indexByCountry(builder.owners),
    attorneysByCountry: indexByCountry(attorneys),
  };
}
