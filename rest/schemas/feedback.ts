/**
 * Response shape of the feedback endpoints (spec: Feedback report).
 */
import { FEEDBACK_STATUSES, FEEDBACK_TYPES } from '../../domain/records';
import { int, nullableInt, nullableStr, nullableTimestamp, object, str, timestamp, type JsonSchema, named } from './json-schema';

const requestSnapshotSchema = object(
  {
    route: str('Route template of the request, for example /v1/trademarks/:id.'),
    method: str(),
    status_code: int(),
    error_type: nullableStr('error.type of the response, or null for a success.'),
    error_detail: nullableStr(),
    duration_ms: { type: 'number' },
    occurred_at: timestamp(),
  },
  "The referenced request from your organization's request log; null when unknown or not your organization's.",
  true,
);

/** found: false carries only resource_type; found: true carries every member (null where the record type lacks it). */
const resourceSnapshotSchema: JsonSchema = {
  type: 'object',
  description: 'Snapshot of the referenced record when the report was filed.',
  properties: {
    found: { type: 'boolean' },
    resource_type: { type: 'string', enum: ['trademark', 'owner', 'attorney', 'firm', 'proceeding'] },
    office: nullableStr(),
    jurisdiction: nullableStr(),
    version: nullableInt(),
    status_primary: nullableStr(),
    source_updated_at: nullableTimestamp(),
    updated_at: nullableTimestamp(),
  },
  required: ['found', 'resource_type'],
  additionalProperties: false,
};

export const feedbackSchema: JsonSchema = named(
  'Feedback',
  object(
    {
      id: str('Feedback report ID (fbk_...).'),
      object: { type: 'string', enum: ['feedback'] },
      api_key_id: nullableStr('The key that filed it (key_...).'),
      type: { type: 'string', enum: FEEDBACK_TYPES },
      status: { type: 'string', enum: FEEDBACK_STATUSES },
      message: str('As submitted.'),
      resource_id: nullableStr('As submitted.'),
      request_ref: nullableStr('The submitted request_id (top-level request_id is this call).'),
      field: nullableStr(),
      expected_value: nullableStr(),
      context: {
        type: 'object',
        description: 'Server-built, read-only. request is present only when a request_id was submitted, resource only with a resource_id.',
        properties: { request: requestSnapshotSchema, resource: resourceSnapshotSchema },
        additionalProperties: false,
      },
      resolution_note: nullableStr(),
      metadata: { type: 'object', additionalProperties: { type: 'string' }, description: 'String-to-string map.' },
      created_at: timestamp(),
      updated_at: timestamp(),
      resolved_at: nullableTimestamp(),
    },
    'A feedback report.',
  ),
);
