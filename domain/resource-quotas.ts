/**
 * How many monitoring objects an organization may keep, per plan (the spec: "per-watch resource
 * quota instead" of a monthly count for the monitoring pool; amounts not shown, so decided here
 * and published in the OpenAPI document). Free has no monitoring at all (403
 * plan_upgrade_required before any count matters).
 */
import { ApiError } from './errors';
import type { PlanName } from './plans';

export interface ResourceQuota {
  watches: number;
  /** Marks across all the organization's portfolios. */
  portfolio_marks: number;
  saved_searches: number;
  webhook_endpoints: number;
}

export type ResourceName = keyof ResourceQuota;

export const RESOURCE_QUOTAS: Readonly<Record<PlanName, ResourceQuota>> = {
  free: { watches: 0, portfolio_marks: 0, saved_searches: 0, webhook_endpoints: 0 },
  starter: { watches: 25, portfolio_marks: 500, saved_searches: 25, webhook_endpoints: 5 },
  beta: { watches: 100, portfolio_marks: 5_000, saved_searches: 100, webhook_endpoints: 10 },
  pro: { watches: 250, portfolio_marks: 10_000, saved_searches: 200, webhook_endpoints: 20 },
  enterprise: { watches: 5_000, portfolio_marks: 250_000, saved_searches: 2_000, webhook_endpoints: 100 },
};

export function resourceQuotaFor(plan: PlanName): ResourceQuota {
  return RESOURCE_QUOTAS[plan];
}

/** Refuses `adding` more of `resource` when `current` + `adding` would pass the plan's limit. */
export function assertWithinQuota(plan: PlanName, resource: ResourceName, current: number, adding: number): void {
  const limit = RESOURCE_QUOTAS[plan][resource];
  if (current + adding <= limit) return;
  throw new ApiError(
    'resource_limit_exceeded',
    `${resource}: the ${plan} plan keeps at most ${limit}; the organization has ${current} and this request adds ${adding}`,
    { limit_name: resource, limit, current },
  );
}
