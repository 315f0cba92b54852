/**
 * Route-table entries of watches and alerts (scope portfolios:manage, monitoring pool, plans with
 * monitoring). Creating, changing and deleting need an Idempotency-Key; the preview and the
 * alert lookup are read-shaped POSTs that do not (spec: Idempotency).
 */
import { ALERT_STATUSES, WATCH_STATUSES, WATCH_TYPES } from '../../domain/records';
import { RESOURCE_QUOTAS } from '../../domain/resource-quotas';
import { NEW_FILING_DAYS } from '../../domain/watch-triggers';
import { METADATA_RULE } from '../../resolvers/accounts/metadata';
import { MAX_ALERT_LOOKUP_IDS } from '../../resolvers/alerts/alerts';
import { MAX_BULK_WATCHES, WATCH_NAME_MAX_LENGTH } from '../../resolvers/watches/watches';
import type { ParamSpec } from '../params';
import type { RouteDef } from '../route';
import { createWatchExample } from '../schemas/examples';
import { deletedObjectSchema } from '../schemas/json-schema';
import { alertSchema, watchDiagnosticsSchema, watchPreviewSchema, watchQuerySchema, watchSchema } from '../schemas/watches';
import { countedPageParams, limitParam } from './paging-params';

const watchIdParam: ParamSpec = { name: 'id', kind: { type: 'id', prefix: 'wch_' }, required: true, description: 'Watch ID (wch_...).' };
const alertIdParam: ParamSpec = { name: 'id', kind: { type: 'id', prefix: 'alt_' }, required: true, description: 'Alert ID (alt_...).' };

const common = { kind: 'operation', scope: 'portfolios:manage', pool: 'monitoring', feature: 'monitoring' } as const;
const watches = { ...common, tag: 'Watches' } as const;
const alerts = { ...common, tag: 'Alerts' } as const;
const write = { tier: 'writes', idempotency: 'required', query: [] } as const;
const read = { tier: 'reads', idempotency: 'none' } as const;

const watchFields = (required: boolean): ParamSpec[] => [
  { name: 'watch_type', kind: { type: 'enum', values: WATCH_TYPES }, required, description: 'similarity, filter or trademark.' },
  { name: 'name', kind: { type: 'string', maxLength: WATCH_NAME_MAX_LENGTH }, description: `Your label, 1 to ${WATCH_NAME_MAX_LENGTH} characters.` },
  { name: 'query', kind: { type: 'object', schema: watchQuerySchema }, required, description: 'The watch query (see the schema).' },
  { name: 'metadata', kind: { type: 'stringMap' }, description: `String-to-string map: ${METADATA_RULE}.` },
];

const alertFilters: ParamSpec[] = [
  { name: 'status', kind: { type: 'enum', values: ALERT_STATUSES }, description: 'Keep alerts in this triage status.' },
  { name: 'trademark_id', kind: { type: 'id', prefix: 'tm_' }, description: 'Keep alerts about this mark.' },
  { name: 'created_at_gte', kind: { type: 'timestamp' }, description: 'Created at or after this instant.' },
  { name: 'created_at_lt', kind: { type: 'timestamp' }, description: 'Created before this instant.' },
  ...countedPageParams,
];

const alertTriggers =
  `Triggers: new_filing (a mark first seen, filed or designated at most ${NEW_FILING_DAYS} days before; one first seen later, as when an office's back file is loaded, alerts only as publication while its opposition period may run, and not at all when dead), publication, registration, opposition_filed, cancellation, status_change, event (another office event), mark_change (text, classes or owner changed), renewal_window_opened (trademark watches: a renewal window of a watched mark opened; checked daily; must_act_by is the renewal due date). ` +
  'One alert per watch, mark and record version, named by the most consequential trigger of that version.';

export const watchRoutes: readonly RouteDef[] = [
  {
    ...watches,
    ...write,
    id: 'createWatch',
    contract: 'named-without-detail',
    mcpTool: 'marque_watches_create',
    method: 'POST',
    path: '/v1/watches',
    operation: 'CreateWatch',
    summary: 'Create a watch',
    description:
      'similarity: flags new or changed marks whose text is confusingly similar to query.q, scored 0 to 1 with the signals behind the score (exact, phonetic, visual, typo, containment, word order, transliteration, class overlap; a mark in Cyrillic or Greek is compared through its Latin reading, other scripts are not read), from query.score_threshold up, within query.filters. ' +
      'filter: every new or changed mark matching query.filters, or the filters of the saved search query.saved_search_id. trademark: status, event and publication changes of query.trademark_ids or the marks of query.portfolio_id. ' +
      'Watches hear of changes from their creation on. Watches an organization may keep, by plan: ' +
      Object.entries(RESOURCE_QUOTAS)
        .filter(([, quota]) => quota.watches > 0)
        .map(([plan, quota]) => `${plan} ${quota.watches.toLocaleString('en-US')}`)
        .join(', ') +
      ' (past it, 403 resource_limit_exceeded with limit_name, limit and current). ' +
      alertTriggers,
    pathParams: [],
    body: watchFields(true),
    successStatus: 201,
    envelope: 'single',
    response: watchSchema,
    errors: [400, 404, 409],
    examples: createWatchExample,
    variables: ({ body }) => ({ ...body }),
  },
  {
    ...watches,
    ...write,
    id: 'createWatchesBulk',
    contract: 'named-without-detail',
    mcpTool: 'marque_watches_create_bulk',
    method: 'POST',
    path: '/v1/watches/bulk',
    operation: 'CreateWatchesBulk',
    summary: 'Create watches in bulk',
    description: `Up to ${MAX_BULK_WATCHES} watches, all or none: an invalid item refuses the request with its error named items[i].field.`,
    pathParams: [],
    body: [
      {
        name: 'items',
        kind: { type: 'objects', fields: watchFields(true), batchLimit: MAX_BULK_WATCHES },
        required: true,
        description: 'The watches to create.',
      },
    ],
    successStatus: 201,
    envelope: 'data_only',
    response: watchSchema,
    errors: [400, 409, 422],
    variables: ({ body }) => ({ items: body.items }),
  },
  {
    ...watches,
    ...read,
    id: 'listWatches',
    contract: 'named-without-detail',
    mcpTool: 'list_watches',
    method: 'GET',
    path: '/v1/watches',
    operation: 'ListWatches',
    summary: 'List watches',
    description: "Your organization's watches, newest first.",
    pathParams: [],
    query: [
      { name: 'status', kind: { type: 'enum', values: WATCH_STATUSES }, description: 'active or paused.' },
      { name: 'watch_type', kind: { type: 'enum', values: WATCH_TYPES }, description: 'similarity, filter or trademark.' },
      ...countedPageParams,
    ],
    successStatus: 200,
    envelope: 'list',
    response: watchSchema,
    errors: [400],
    variables: ({ query }) => ({ ...query }),
  },
  {
    ...watches,
    tier: 'search',
    idempotency: 'exempt',
    id: 'previewWatch',
    mcpTool: 'preview_watch',
    method: 'POST',
    path: '/v1/watches/preview',
    operation: 'PreviewWatch',
    summary: 'Preview a watch query',
    description:
      'Dry run over the marks in the catalog; no watch is created and no Idempotency-Key is needed. A page of matching marks in summary shape plus estimated_match_count; count_only: true answers the number alone (data null). ' +
      'Budget about 20 seconds: past it before candidates are found, 504 preview_timeout; after, the count is an upper bound (estimate_basis candidacy_upper_bound). One preview per organization at a time: a second concurrent one is 429 with Retry-After.',
    pathParams: [],
    query: [],
    body: [
      watchFields(true)[0] as ParamSpec,
      watchFields(true)[2] as ParamSpec,
      limitParam(),
      { name: 'count_only', kind: { type: 'boolean' }, description: 'Answer estimated_match_count only.' },
    ],
    successStatus: 200,
    envelope: 'single',
    response: watchPreviewSchema,
    absentWhenNull: ['estimate_basis'],
    errors: [400, 504],
    variables: ({ body }) => ({ ...body }),
  },
  {
    ...watches,
    ...read,
    id: 'getWatch',
    contract: 'named-without-detail',
    mcpTool: 'get_watch',
    method: 'GET',
    path: '/v1/watches/:id',
    operation: 'GetWatch',
    summary: 'Retrieve a watch',
    description: "One of your organization's watches; other organizations' are 404.",
    pathParams: [watchIdParam],
    query: [],
    successStatus: 200,
    envelope: 'single',
    response: watchSchema,
    errors: [400, 404],
    variables: ({ path }) => ({ id: path.id }),
  },
  {
    ...watches,
    ...write,
    id: 'updateWatch',
    contract: 'named-without-detail',
    mcpTool: 'marque_watches_update',
    method: 'PATCH',
    path: '/v1/watches/:id',
    operation: 'UpdateWatch',
    summary: 'Update a watch',
    description:
      'Partial update: name, query (checked for the watch type, which cannot change), metadata (merged; a null value removes the key). Omitted fields are unchanged.',
    pathParams: [watchIdParam],
    body: [
      watchFields(false)[1] as ParamSpec,
      watchFields(false)[2] as ParamSpec,
      { name: 'metadata', kind: { type: 'stringMap', nullValues: true }, description: `Merged into the metadata; null removes a key. ${METADATA_RULE}.` },
    ],
    successStatus: 200,
    envelope: 'single',
    response: watchSchema,
    errors: [400, 404, 409],
    variables: ({ path, body }) => ({ ...body, id: path.id }),
  },
  {
    ...watches,
    ...write,
    id: 'deleteWatch',
    contract: 'named-without-detail',
    mcpTool: 'marque_watches_delete',
    method: 'DELETE',
    path: '/v1/watches/:id',
    operation: 'DeleteWatch',
    summary: 'Delete a watch',
    description: 'The watch stops at once; its alerts stay readable in the alerts list.',
    pathParams: [watchIdParam],
    successStatus: 200,
    envelope: 'single',
    response: deletedObjectSchema('watch'),
    errors: [400, 404, 409],
    variables: ({ path }) => ({ id: path.id }),
  },
  ...(['pause', 'resume'] as const).map((action): RouteDef => ({
    ...watches,
    ...write,
    id: `${action}Watch`,
    contract: 'named-without-detail',
    mcpTool: `${action}_watch`,
    method: 'POST',
    setsState: true,
    path: `/v1/watches/:id/${action}`,
    operation: action === 'pause' ? 'PauseWatch' : 'ResumeWatch',
    summary: action === 'pause' ? 'Pause a watch' : 'Resume a watch',
    description:
      action === 'pause'
        ? 'Stops evaluation; no alerts until resumed. Pausing a paused watch changes nothing.'
        : 'Evaluation continues from now (evaluating_since): changes that occurred while the watch was paused are not replayed; preview the query to see them. Resuming an active watch changes nothing.',
    pathParams: [watchIdParam],
    successStatus: 200,
    envelope: 'single',
    response: watchSchema,
    errors: [400, 404, 409],
    variables: ({ path }) => ({ id: path.id }),
  })),
  {
    ...watches,
    ...read,
    id: 'listWatchAlerts',
    contract: 'named-without-detail',
    mcpTool: 'list_alerts_for_watch',
    method: 'GET',
    path: '/v1/watches/:id/alerts',
    operation: 'ListWatchAlerts',
    summary: "List a watch's alerts",
    description: `The watch's alerts, newest first. ${alertTriggers}`,
    pathParams: [watchIdParam],
    query: alertFilters,
    successStatus: 200,
    envelope: 'list',
    response: alertSchema,
    errors: [400, 404],
    variables: ({ path, query }) => ({ ...query, id: path.id }),
  },
  {
    ...watches,
    ...read,
    id: 'getWatchDiagnostics',
    contract: 'named-without-detail',
    mcpTool: 'get_watch_diagnostics',
    method: 'GET',
    path: '/v1/watches/:id/diagnostics',
    operation: 'GetWatchDiagnostics',
    summary: 'Diagnose a watch',
    description:
      "The watch's evaluation state (when it evaluates from, the last change processed, alerts created, the last error) and, for up to 20 marks it matches now, the opposition window computed as in trademark detail: window_status closed for windows that closed long ago, marks published before 2024 included.",
    pathParams: [watchIdParam],
    query: [],
    successStatus: 200,
    envelope: 'single',
    response: watchDiagnosticsSchema,
    errors: [400, 404, 504],
    variables: ({ path }) => ({ id: path.id }),
  },
  {
    ...alerts,
    ...read,
    id: 'listAlerts',
    contract: 'named-without-detail',
    mcpTool: 'list_alerts',
    method: 'GET',
    path: '/v1/alerts',
    operation: 'ListAlerts',
    summary: 'List alerts',
    description: `Your organization's alerts, newest first. ${alertTriggers}`,
    pathParams: [],
    query: [{ name: 'watch_id', kind: { type: 'id', prefix: 'wch_' }, description: "Keep one watch's alerts (also of a deleted watch)." }, ...alertFilters],
    successStatus: 200,
    envelope: 'list',
    response: alertSchema,
    errors: [400, 404],
    variables: ({ query }) => ({ ...query }),
  },
  {
    ...alerts,
    tier: 'writes',
    idempotency: 'exempt',
    id: 'lookupAlerts',
    contract: 'named-without-detail',
    mcpTool: 'lookup_alert',
    method: 'POST',
    path: '/v1/alerts/lookup',
    operation: 'LookupAlerts',
    summary: 'Look up alerts by ID',
    description: `Up to ${MAX_ALERT_LOOKUP_IDS} alerts, found ones in request order; unknown IDs and other organizations' are left out. As a POST it counts against the writes tier. No Idempotency-Key needed.`,
    pathParams: [],
    query: [],
    body: [
      { name: 'ids', kind: { type: 'id', prefix: 'alt_' }, array: true, maxItems: MAX_ALERT_LOOKUP_IDS, required: true, description: 'Alert IDs (alt_...).' },
    ],
    successStatus: 200,
    envelope: 'data_only',
    response: alertSchema,
    errors: [400],
    variables: ({ body }) => ({ ids: body.ids }),
  },
  {
    ...alerts,
    ...read,
    id: 'getAlert',
    contract: 'named-without-detail',
    mcpTool: 'get_alert',
    method: 'GET',
    path: '/v1/alerts/:id',
    operation: 'GetAlert',
    summary: 'Retrieve an alert',
    description: "One of your organization's alerts; other organizations' are 404.",
    pathParams: [alertIdParam],
    query: [],
    successStatus: 200,
    envelope: 'single',
    response: alertSchema,
    errors: [400, 404],
    variables: ({ path }) => ({ id: path.id }),
  },
  {
    ...alerts,
    ...write,
    id: 'updateAlert',
    contract: 'unnamed',
    mcpTool: 'update_alert',
    method: 'PATCH',
    path: '/v1/alerts/:id',
    operation: 'UpdateAlert',
    summary: 'Triage an alert',
    description:
      'An alert is immutable apart from its status: open → acknowledged or dismissed, and back to open (acknowledged ↔ dismissed goes through open).',
    pathParams: [alertIdParam],
    body: [{ name: 'status', kind: { type: 'enum', values: ALERT_STATUSES }, required: true, description: 'open, acknowledged or dismissed.' }],
    successStatus: 200,
    envelope: 'single',
    response: alertSchema,
    errors: [400, 404, 409],
    variables: ({ path, body }) => ({ ...body, id: path.id }),
  },
];
