/** A stored request log row of a successful GET of one mark, with the ID, organization and time a test needs. */
import type { RequestLogDoc } from '../../domain/records';

export function requestLogAt(id: string, organizationId: string, occurredAt: Date): RequestLogDoc {
  return {
    _id: id,
    organization_id: organizationId,
    api_key_id: null,
    route: '/v1/trademarks/:id',
    method: 'GET',
    status_code: 200,
    error_type: null,
    error_detail: null,
    duration_ms: 1,
    occurred_at: occurredAt.toISOString(),
  };
}
