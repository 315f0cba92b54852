/**
 * The contract's closed lists and fixed limits that more than one layer needs: the REST parameter
 * specs and the OpenAPI document state them, the resolvers enforce them. Kept here, once, so the
 * documented rule and the enforced rule are the same value.
 */

/** Spec (Other constants): member-owner cap of an entity listing and of the entity_id filter. */
export const MEMBER_OWNER_LIMIT = 10_000;
/** Bounds of the corporate-family walk behind `entity_group` (spec: Errors, details 1). */
export const RELATED_ENTITY_LIMIT = 100;
export const FAMILY_DEPTH_LIMIT = 5;

/** Spec: sort fields for GET/POST /v1/trademarks. */
export const TRADEMARK_SORT_FIELDS = [
  'filing_date',
  'registration_date',
  'expiry_date',
  'renewal_due_date',
  'updated_at',
  'publication_date',
  'termination_date',
  'office_code',
  'jurisdiction_code',
] as const;

/** Date fields with `_gte/_gt/_lte/_lt` range parameters (index field = parameter stem). */
export const TRADEMARK_DATE_FIELDS = [
  'filing_date',
  'registration_date',
  'expiry_date',
  'renewal_due_date',
  'publication_date',
  'termination_date',
  'updated_at',
] as const;

/** Spec: sort fields for GET /v1/owners. */
export const OWNER_SORT_FIELDS = ['name', 'updated_at'] as const;

export const ATTORNEY_SORT_FIELDS = ['name', 'trademark_count', 'updated_at'] as const;

export const ENTITY_SORT_FIELDS = ['name', 'member_count', 'trademark_count', 'updated_at'] as const;

/** Spec: GET /v1/firms sorts, each ascending or descending. */
export const FIRM_SORT_FIELDS = ['trademark_count', 'attorney_count', 'grant_rate', 'name'] as const;

export const FIRM_PAGE_SIZE_MAX = 50;

export const FIRM_INCLUDES = ['stats', 'attorneys'] as const;

/** Includes the API offered once; naming one gets a 400 that says so. */
export const REMOVED_FIRM_INCLUDES = ['specializations', 'jurisdictions', 'trend'] as const;

export const HISTORY_SORTS = ['-event_date', 'event_date'] as const;

export const PROCEEDING_SORTS = ['-filed_date', 'filed_date', '-decided_date', 'decided_date'] as const;

/** `GET /v1/trademarks/{id}/source?include=raw` adds the raw record. */
export const SOURCE_INCLUDES = ['raw'] as const;
