/**
 * Response shapes of the owner, attorney, firm and entity endpoints.
 */
import { arrayOf, constant, date, int, bool, nullableDate, nullableNum, nullableStr, object, str, timestamp, type JsonSchema, named } from './json-schema';
import { companySchema } from './trademarks';

const ownerCore = {
  id: str('own_...'),
  object: constant('owner'),
  name: str(),
  canonical_name: str('Normalized name used for entity resolution.'),
  country_code: nullableStr('ISO 3166-1 alpha-2.'),
  entity_type: str('corporation, individual, partnership, trust, government or other.'),
  entity_id: str('Resolved entity (ent_...) this owner record belongs to.'),
};

export const ownerSummarySchema: JsonSchema = named(
  'OwnerSummary',
  object({ ...ownerCore, trademark_count: int('Marks naming this owner.'), updated_at: timestamp() }, 'Owner list row.'),
);

export const ownerDetailSchema: JsonSchema = named(
  'Owner',
  object(
    {
      ...ownerCore,
      aliases: arrayOf(str(), 'Other spellings recorded for this owner.'),
      entity_id_type: str('How the entity was resolved: derived, lei or company_profile.'),
      companies: arrayOf(companySchema, 'Confirmed securities listings and LEIs.'),
      trademark_count: int('Marks naming this owner.'),
      active_trademark_count: int('Of those, marks whose primary status is active.'),
      created_at: timestamp(),
      updated_at: timestamp(),
    },
    'Owner record.',
  ),
);

export const ownerRelatedSchema: JsonSchema = named(
  'RelatedOwner',
  object(
    {
      related_owner_id: str('own_...'),
      name: nullableStr('Name of the related owner; null when its record is missing.'),
      country_code: nullableStr(),
      relationship_type: str('Corporate-relationship code, for example IS_DIRECTLY_CONSOLIDATED_BY.'),
      relationship_status: str('For example ACTIVE.'),
      ownership_pct: nullableNum(),
      period_start: date(),
      period_end: nullableDate('Null while current.'),
      direction: { type: 'string', enum: ['parent', 'child'], description: 'parent: the related owner is a parent of this one.' },
      source: str('Data source, for example gleif_level2.'),
    },
    'Owner related entity row.',
  ),
);

export const attorneySchema: JsonSchema = named(
  'Attorney',
  object(
    {
      id: str('att_...'),
      object: constant('attorney'),
      name: str(),
      canonical_name: str(),
      email: nullableStr(),
      country_code: nullableStr(),
      firm_id: nullableStr('firm_...'),
      firm_name: nullableStr(),
      bar_admissions: arrayOf(str(), 'Bar admissions, for example US-NY.'),
      trademark_count: int('Marks this attorney handles.'),
      created_at: timestamp(),
      updated_at: timestamp(),
    },
    'Attorney record (list rows and detail).',
  ),
);

export const attorneyClientSchema: JsonSchema = named(
  'AttorneyClient',
  object(
    {
      id: str('own_...'),
      object: constant('owner'),
      name: str(),
      canonical_name: str(),
      country_code: nullableStr(),
      entity_type: str(),
      shared_trademark_count: int('Marks on which this attorney represents this owner.'),
    },
    'Attorney client row.',
  ),
);

const firmCore = {
  id: str('firm_...'),
  object: constant('firm'),
  name: str('Display name.'),
  canonical_name: str('Normalized name used for entity resolution.'),
  country_code: nullableStr('Two letters.'),
  attorney_count: int('Distinct attorneys (merged records excluded).'),
  trademark_count: int("Marks handled by the firm's attorneys; a Madrid international-registration family (marks sharing ir_number) counts once."),
  latest_filing: nullableDate('Filing date of the newest mark.'),
  created_at: timestamp(),
};

export const firmSummarySchema: JsonSchema = named(
  'FirmSummary',
  object(
    {
      ...firmCore,
      grant_rate: nullableNum(
        'Share (0 to 1) of concluded prosecutions that were ever granted. Concluded stages: registered, pending_cancellation, expired, cancelled, invalidated, surrendered, refused, abandoned, withdrawn; granted: the mark has a registration date. Null while none has concluded.',
      ),
    },
    'Firm list row.',
  ),
);

const firmStatsSchema = named(
  'FirmStats',
  object(
    {
      trademark_count: int('As the top-level trademark_count.'),
      registered_count: int('Marks that ever reached registration.'),
      pending_count: int('Marks whose primary status is pending.'),
      abandoned_count: int('Marks abandoned or withdrawn.'),
      registration_rate: nullableNum('registered_count over all marks (each designation counted).'),
    },
    'Present only with include=stats.',
  ),
);

const firmDetailObject = object(
  {
    ...firmCore,
    aliases: arrayOf(object({ name: str(), type: str(), source_office: nullableStr() })),
    registration_rate: nullableNum('Share of marks that reached registration; null without marks.'),
    stats: firmStatsSchema,
    attorneys: arrayOf(attorneySchema, 'Present only with include=attorneys: the first 20 attorneys by name.'),
    attorneys_has_more: bool('Present only with include=attorneys: whether GET /v1/firms/{id}/attorneys has more.'),
    updated_at: timestamp(),
  },
  'Firm record.',
);

export const firmDetailSchema: JsonSchema = named('Firm', {
  ...firmDetailObject,
  required: (firmDetailObject.required ?? []).filter((key) => !['stats', 'attorneys', 'attorneys_has_more'].includes(key)),
});

const entityCore = {
  id: str('ent_...'),
  object: constant('entity'),
  name: str(),
  canonical_name: str(),
  country_code: nullableStr(),
  lei: nullableStr(),
  ticker: nullableStr(),
  member_count: int('Member owner records.'),
  trademark_count: int('Marks naming any member owner.'),
  created_at: timestamp(),
  updated_at: timestamp(),
};

export const entitySchema: JsonSchema = named('EntitySummary', object(entityCore, 'Resolved entity list row.'));
export const entityDetailSchema: JsonSchema = named(
  'Entity',
  object({ ...entityCore, member_owner_ids: arrayOf(str(), 'Member owners (own_...).') }, 'Resolved entity record.'),
);
