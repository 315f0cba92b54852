/**
 * The organization's plan limit on monitoring objects, checked where they are created (inside the
 * creating transaction, so two concurrent creations cannot both pass the last free place).
 */
import { COLLECTIONS, type OrganizationDoc, type WatchDoc } from '../../domain/records';
import { assertWithinQuota } from '../../domain/resource-quotas';
import type { RequestContext } from '../context';

export async function assertResourceQuota(ctx: RequestContext, resource: 'watches', adding: number): Promise<void> {
  const { store } = ctx.services;
  const organizationId = ctx.caller.organizationId;
  const organization = await store.collection<OrganizationDoc>(COLLECTIONS.organizations).findOne({ _id: organizationId });
  const current = await store.collection<WatchDoc>(COLLECTIONS.watches).countDocuments({ organization_id: organizationId });
  assertWithinQuota(organization?.plan ?? 'free', resource, current, adding);
}
