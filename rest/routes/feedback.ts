/**
 * Route-table entries of feedback reports: filing (any valid key, never billed), listing and
 * reading within the organization, and status moves by the service team (scope admin).
 */
import { FEEDBACK_STATUSES, FEEDBACK_TYPES } from '../../domain/records';
import { METADATA_RULE } from '../../resolvers/accounts/metadata';
import {
  FEEDBACK_EXPECTED_VALUE_MAX_LENGTH,
  FEEDBACK_FIELD_MAX_LENGTH,
  FEEDBACK_MESSAGE_MAX_LENGTH,
  FEEDBACK_REQUEST_REF_PATTERN,
  FEEDBACK_RESOLUTION_NOTE_MAX_LENGTH,
  FEEDBACK_RESOURCE_ID_MAX_LENGTH,
} from '../../resolvers/feedback/rules';
import type { ParamSpec } from '../params';
import type { RouteDef } from '../route';
import { feedbackSchema } from '../schemas/feedback';
import { countedPageParams } from './paging-params';

const feedbackIdParam: ParamSpec = { name: 'id', kind: { type: 'id', prefix: 'fbk_' }, required: true, description: 'Feedback report ID (fbk_...).' };

const common = { kind: 'operation', tag: 'Feedback', pool: 'utility' } as const;

export const feedbackRoutes: readonly RouteDef[] = [
  {
    ...common,
    id: 'createFeedback',
    method: 'POST',
    path: '/v1/feedback',
    operation: 'CreateFeedback',
    summary: 'Report a problem or an idea',
    description:
      'Any valid key may file a report; never billed. Name a record (resource_id) and/or one of your requests (request_id, for example the request_id of a failed call) ' +
      "and the report captures context: context.request from your organization's request log (null when the request is unknown or not yours), " +
      'context.resource a snapshot of the record (found: false when it does not exist). Unknown references never reject a report.',
    scope: null,
    tier: 'writes',
    idempotency: 'required',
    pathParams: [],
    query: [],
    body: [
      { name: 'type', kind: { type: 'enum', values: FEEDBACK_TYPES }, required: true, description: FEEDBACK_TYPES.join(', ') + '.' },
      {
        name: 'message',
        kind: { type: 'string', maxLength: FEEDBACK_MESSAGE_MAX_LENGTH },
        required: true,
        description: `1 to ${FEEDBACK_MESSAGE_MAX_LENGTH} characters.`,
      },
      {
        name: 'resource_id',
        kind: { type: 'string', maxLength: FEEDBACK_RESOURCE_ID_MAX_LENGTH },
        description: 'ID of a trademark (tm_), owner (own_), attorney (att_), firm (firm_) or proceeding (prc_).',
      },
      {
        name: 'request_id',
        kind: { type: 'string', maxLength: 64, pattern: FEEDBACK_REQUEST_REF_PATTERN, patternRule: 'must be up to 64 characters of A-Z, a-z, 0-9, _ and -' },
        description: 'A req_ ID from an earlier response, or your own request id (up to 64 URL-safe characters).',
      },
      {
        name: 'field',
        kind: { type: 'string', maxLength: FEEDBACK_FIELD_MAX_LENGTH },
        description: `For data issues: the field that is wrong, up to ${FEEDBACK_FIELD_MAX_LENGTH} characters.`,
      },
      {
        name: 'expected_value',
        kind: { type: 'string', maxLength: FEEDBACK_EXPECTED_VALUE_MAX_LENGTH },
        description: `For data issues: the value you expected, up to ${FEEDBACK_EXPECTED_VALUE_MAX_LENGTH} characters.`,
      },
      { name: 'metadata', kind: { type: 'stringMap' }, description: `String-to-string map: ${METADATA_RULE}.` },
    ],
    successStatus: 201,
    envelope: 'single',
    response: feedbackSchema,
    errors: [400, 409],
    variables: ({ body }) => ({ ...body }),
  },
  {
    ...common,
    id: 'listFeedback',
    contract: 'named-without-detail',
    method: 'GET',
    path: '/v1/feedback',
    operation: 'ListFeedback',
    summary: 'List feedback reports',
    description: "Your organization's reports, newest first.",
    scope: null,
    tier: 'reads',
    idempotency: 'none',
    pathParams: [],
    query: [
      { name: 'status', kind: { type: 'enum', values: FEEDBACK_STATUSES }, description: 'Keep reports in this status.' },
      { name: 'type', kind: { type: 'enum', values: FEEDBACK_TYPES }, description: 'Keep reports of this type.' },
      ...countedPageParams,
    ],
    successStatus: 200,
    envelope: 'list',
    response: feedbackSchema,
    errors: [400],
    variables: ({ query }) => ({ ...query }),
  },
  {
    ...common,
    id: 'getFeedback',
    contract: 'named-without-detail',
    method: 'GET',
    path: '/v1/feedback/:id',
    operation: 'GetFeedback',
    summary: 'Retrieve a feedback report',
    description: "One of your organization's reports; reports of other organizations are 404.",
    scope: null,
    tier: 'reads',
    idempotency: 'none',
    pathParams: [feedbackIdParam],
    query: [],
    successStatus: 200,
    envelope: 'single',
    response: feedbackSchema,
    errors: [400, 404],
    variables: ({ path }) => ({ id: path.id }),
  },
  {
    ...common,
    id: 'updateFeedbackStatus',
    method: 'PATCH',
    path: '/v1/feedback/:id',
    operation: 'UpdateFeedbackStatus',
    summary: 'Move a feedback report (service team)',
    description:
      'Internal (scope admin; reports of every organization): open → acknowledged → resolved; acknowledging may be skipped; resolved is final. ' +
      'Resolving sets resolved_at and needs resolution_note. Same as `marque feedback acknowledge|resolve`.',
    scope: 'admin',
    tier: 'writes',
    idempotency: 'required',
    pathParams: [feedbackIdParam],
    query: [],
    body: [
      { name: 'status', kind: { type: 'enum', values: ['acknowledged', 'resolved'] }, required: true, description: 'acknowledged or resolved.' },
      {
        name: 'resolution_note',
        kind: { type: 'string', maxLength: FEEDBACK_RESOLUTION_NOTE_MAX_LENGTH },
        description: `Required when resolving; up to ${FEEDBACK_RESOLUTION_NOTE_MAX_LENGTH} characters.`,
      },
    ],
    successStatus: 200,
    envelope: 'single',
    response: feedbackSchema,
    errors: [400, 404, 409],
    variables: ({ path, body }) => ({ ...body, id: path.id }),
  },
];
