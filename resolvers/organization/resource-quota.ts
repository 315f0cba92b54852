/**
 * The organization's plan limits on monitoring objects (domain/resource-quotas.ts), checked where
 * they are created, inside the creating transaction, so two concurrent creations cannot both take
 * the last free place.
 */
import { COLLECTIONS, type OrganizationDoc, type PortfolioDoc } from '../../domain/records';
import { assertWithinQuota, type ResourceName } from '../../domain/resource-quotas';
import type { RequestContext } from '../context';

async function currentCount(ctx: RequestContext, resource: ResourceName): Promise<number> {
  const { store } = ctx.services;
  const organization_id = ctx.caller.organizationId;
  switch (resource) {
    case 'watches':
      return store.collection(COLLECTIONS.watches).countDocuments({ organization_id });
    case 'saved_searches':
      return store.collection(COLLECTIONS.savedSearches).countDocuments({ organization_id });
    case 'webhook_endpoints':
      return store.collection(COLLECTIONS.webhookEndpoints).countDocuments({ organization_id });
    case 'portfolio_marks':
      return (await store.collection<PortfolioDoc>(COLLECTIONS.portfolios).find({ organization_id })).reduce(
        (sum, portfolio) => sum + portfolio.trademark_ids.length,
        0,
      );
  }
}

/** Refuses adding `adding` more of `resource` past the organization's plan limit (403 resource_limit_exceeded). */
export async function assertResourceQuota(ctx: RequestContext, resource: ResourceName, adding: number): Promise<void> {
  if (adding <= 0) return;
  const organization = await ctx.services.store.collection<OrganizationDoc>(COLLECTIONS.organizations).findOne({ _id: ctx.caller.organizationId });
  assertWithinQuota(organization?.plan ?? 'free', resource, await currentCount(ctx, resource), adding);
}
