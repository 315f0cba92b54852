/**
 * Reference data (offices, jurisdictions, Nice classes, Vienna design codes, event types), served
 * from the shipped data files. Each list is small and bounded: one page, has_more false.
 */
import { WEBHOOK_EVENT_TYPES } from '../../domain/webhook-events';
import { invalid } from '../../domain/errors';
import { OFFICES, type OfficeRecord } from '../../domain/offices';
import { EVENT_TYPES, NICE_CLASSES, NICE_TERMS, VIENNA_CATEGORIES } from '../reference-data';

/** Nice editions whose headings we ship; the 13th edition is in force from 2026-01-01. */
export const NICE_VERSIONS = ['12-2025', '13-2026'] as const;
export type NiceVersion = (typeof NICE_VERSIONS)[number];
export const CURRENT_NICE_VERSION: NiceVersion = '13-2026';

export const EVENT_CATEGORIES: readonly string[] = [...new Set(EVENT_TYPES.map((t) => t.category))].sort();

const onePage = <T>(data: T[]) => ({ data, has_more: false, pagination: { cursor: null } });

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** English name of a jurisdiction: the office data's own name, else the ICU region name. */
export function jurisdictionName(code: string): string {
  const office = OFFICES.find((o) => o.jurisdiction_code === code);
  if (office) return office.jurisdiction_name;
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

function officeRow(office: OfficeRecord) {
  return {
    object: 'office',
    code: office.office_code,
    name: office.name,
    acronym: office.acronym,
    jurisdiction_code: office.jurisdiction_code,
    jurisdiction_name: office.jurisdiction_name,
    kind: office.kind,
    seat: office.seat,
    time_zone: office.time_zone,
    holiday_calendar: office.holiday_calendar,
    holiday_subdivision: office.holiday_subdivision,
    madrid_member: office.madrid_member,
    legacy_code: office.legacy_code,
    languages: office.languages,
    covers: office.covers ?? [],
    notes: office.notes ?? null,
  };
}

function offices(args: { kind?: string | null; madrid_member?: boolean | null }) {
  return onePage(
    OFFICES.filter((o) => (args.kind == null || o.kind === args.kind) && (args.madrid_member == null || o.madrid_member === args.madrid_member)).map(officeRow),
  );
}

/**
 * Every jurisdiction an office serves, plus the member states regional offices cover (a German
 * mark can come from DE or EM): each with its own offices and the regional offices covering it.
 */
function jurisdictions() {
  const codes = new Set([...OFFICES.map((o) => o.jurisdiction_code), ...OFFICES.flatMap((o) => o.covers ?? [])]);
  return onePage(
    [...codes].sort().map((code) => {
      const own = OFFICES.filter((o) => o.jurisdiction_code === code);
      return {
        object: 'jurisdiction',
        code,
        name: jurisdictionName(code),
        offices: own.map((o) => o.office_code),
        covered_by: OFFICES.filter((o) => (o.covers ?? []).includes(code)).map((o) => o.office_code),
        member_states: own.flatMap((o) => o.covers ?? []),
        madrid_member: own.some((o) => o.madrid_member) || OFFICES.some((o) => o.madrid_member && (o.covers ?? []).includes(code)),
      };
    }),
  );
}

function classifications(args: { version?: string | null; kind?: string | null }) {
  const version = args.version ?? CURRENT_NICE_VERSION;
  if (!(NICE_VERSIONS as readonly string[]).includes(version)) throw invalid('version', `must be one of ${NICE_VERSIONS.join(', ')} (got '${version}')`);
  const termCounts = new Map<number, number>();
  for (const term of NICE_TERMS) termCounts.set(term.class, (termCounts.get(term.class) ?? 0) + 1);
  return onePage(
    NICE_CLASSES.filter((c) => args.kind == null || c.kind === args.kind).map((c) => ({
      object: 'nice_class',
      class: c.class,
      kind: c.kind,
      heading: version === '13-2026' ? c.heading_ncl13_2026 : c.heading,
      short: c.short,
      version,
      standard_term_count: termCounts.get(c.class) ?? 0,
    })),
  );
}

function designCodes(args: { category?: string | null }) {
  return onePage(
    VIENNA_CATEGORIES.filter((c) => args.category == null || c.code === args.category).map((c) => ({
      object: 'design_category',
      code: c.code,
      title: c.title,
      divisions: c.divisions.map((d) => ({ code: d.code, title: d.title })),
      divisions_verified: c.divisions_verified ?? null,
    })),
  );
}

/** Categories of GET /v1/event-types: the prosecution events' and `webhook` (the event log's types). */
export const EVENT_TYPE_CATEGORIES: readonly string[] = [...EVENT_CATEGORIES, 'webhook'];

/** Prosecution event types (trademark history), then the webhook event types with their payload schemas. */
function eventTypes(args: { category?: string | null }) {
  const prosecution = EVENT_TYPES.map((t) => ({
    object: 'event_type',
    code: t.code,
    category: t.category,
    description: t.description,
    uspto_tsdr: t.uspto_tsdr.map((u) => ({ code: u.code ?? null, description: u.description })),
    euipo_status: t.euipo_status,
    provenance: t.provenance,
    payload_schema: null,
  }));
  const webhook = WEBHOOK_EVENT_TYPES.map((t) => ({
    object: 'event_type',
    code: t.type,
    category: 'webhook',
    description: t.description,
    uspto_tsdr: [],
    euipo_status: [],
    provenance: 'service',
    payload_schema: t.data,
  }));
  return onePage([...prosecution, ...webhook].filter((t) => args.category == null || t.category === args.category));
}

export const referenceQueryResolvers = {
  offices: (_: unknown, args: { kind?: string | null; madrid_member?: boolean | null }) => offices(args),
  jurisdictions: () => jurisdictions(),
  classifications: (_: unknown, args: { version?: string | null; kind?: string | null }) => classifications(args),
  designCodes: (_: unknown, args: { category?: string | null }) => designCodes(args),
  eventTypes: (_: unknown, args: { category?: string | null }) => eventTypes(args),
};
