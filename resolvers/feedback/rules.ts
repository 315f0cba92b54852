/**
 * The field rules of a feedback submission (spec: Feedback), checked in the resolver so the REST
 * route and /graphql callers get the same answers. The REST parameter specs use the same limits.
 */
import { ApiError, invalid } from '../../domain/errors';
import { ID_BODY_RULE, ID_PREFIXES, idKind, type IdKind } from '../../domain/ids';
import { FEEDBACK_TYPES, type FeedbackType } from '../../domain/records';
import { truncate } from '../../domain/validation';
import { parseMetadata } from '../accounts/metadata';

export const FEEDBACK_MESSAGE_MAX_LENGTH = 5000;
export const FEEDBACK_FIELD_MAX_LENGTH = 255;
export const FEEDBACK_EXPECTED_VALUE_MAX_LENGTH = 5000;
export const FEEDBACK_RESOLUTION_NOTE_MAX_LENGTH = 5000;
/** `req_...` or a client's own request id: up to 64 URL-safe characters. */
export const FEEDBACK_REQUEST_REF_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Record kinds a report may name; their snapshot goes to context.resource. */
export const FEEDBACK_RESOURCE_KINDS: readonly IdKind[] = ['trademark', 'owner', 'attorney', 'firm', 'proceeding'];
/** Longest resource_id worth parsing: the longest prefix (firm_) plus a 64-character body. */
export const FEEDBACK_RESOURCE_ID_MAX_LENGTH = 69;

export interface FeedbackInput {
  type: string;
  message: string;
  resource_id?: string | null;
  request_id?: string | null;
  field?: string | null;
  expected_value?: string | null;
  metadata?: unknown;
}

export interface CheckedFeedback {
  type: FeedbackType;
  message: string;
  resourceId: string | null;
  resourceKind: IdKind | null;
  requestRef: string | null;
  field: string | null;
  expectedValue: string | null;
  metadata: Record<string, string>;
}

export function boundedText(name: string, value: string, max: number): string {
  if (value.length === 0) throw invalid(name, 'must not be empty');
  if (value.length > max) throw invalid(name, `must be at most ${max} characters (got ${value.length})`);
  return value;
}

const optionalText = (name: string, value: string | null | undefined, max: number): string | null =>
  value === null || value === undefined ? null : boundedText(name, value, max);

const RESOURCE_PREFIXES = FEEDBACK_RESOURCE_KINDS.map((kind) => ID_PREFIXES[kind]).join(', ');

/** Malformed → 400 validation_error; a well-formed ID of another kind (key_, fbk_ …) → 400 id_type_mismatch. */
function checkResourceId(raw: string): IdKind {
  const kind = idKind(raw);
  if (kind === null) throw invalid('resource_id', `must be an ID: one of ${RESOURCE_PREFIXES} followed by ${ID_BODY_RULE} (got '${truncate(raw)}')`);
  if (!FEEDBACK_RESOURCE_KINDS.includes(kind)) {
    throw new ApiError('id_type_mismatch', `resource_id: expected an ID starting with one of ${RESOURCE_PREFIXES} but got a ${kind} ID ('${truncate(raw)}')`, {
      parameter: 'resource_id',
    });
  }
  return kind;
}

export function checkFeedback(input: FeedbackInput): CheckedFeedback {
  if (!(FEEDBACK_TYPES as readonly string[]).includes(input.type))
    throw invalid('type', `must be one of ${FEEDBACK_TYPES.join(', ')} (got '${truncate(String(input.type))}')`);
  const requestRef = input.request_id ?? null;
  if (requestRef !== null && !FEEDBACK_REQUEST_REF_PATTERN.test(requestRef)) {
    throw invalid('request_id', `must be a req_ ID or your own request id of up to 64 characters of A-Z, a-z, 0-9, _ and - (got '${truncate(requestRef)}')`);
  }
  const resourceId = input.resource_id ?? null;
  return {
    type: input.type as FeedbackType,
    message: boundedText('message', input.message, FEEDBACK_MESSAGE_MAX_LENGTH),
    resourceId,
    resourceKind: resourceId === null ? null : checkResourceId(resourceId),
    requestRef,
    field: optionalText('field', input.field, FEEDBACK_FIELD_MAX_LENGTH),
    expectedValue: optionalText('expected_value', input.expected_value, FEEDBACK_EXPECTED_VALUE_MAX_LENGTH),
    metadata: input.metadata === undefined || input.metadata === null ? {} : parseMetadata('metadata', input.metadata),
  };
}
