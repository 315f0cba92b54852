/**
 * Organizations: the tenant every key, quota and customer object belongs to.
 */
import type { DocumentStore } from '../../datasources/ports';
import { randomId } from '../../domain/ids';
import type { PlanName } from '../../domain/plans';
import { COLLECTIONS, type OrganizationDoc } from '../../domain/records';

export const PLAN_NAMES: readonly PlanName[] = ['beta', 'free', 'starter', 'pro', 'enterprise'];

export async function createOrganization(
  store: DocumentStore,
  input: { name: string; plan?: PlanName; billingAnchorDay?: number },
  now: Date = new Date(),
): Promise<OrganizationDoc> {
  const at = now.toISOString();
  const org: OrganizationDoc = {
    _id: randomId('org_'),
    name: input.name,
    plan: input.plan ?? 'beta',
    billing_anchor_day: input.billingAnchorDay ?? Math.min(now.getUTCDate(), 28),
    created_at: at,
    updated_at: at,
  };
  await store.collection<OrganizationDoc>(COLLECTIONS.organizations).insertOne(org);
  return org;
}

export async function findOrganization(store: DocumentStore, id: string): Promise<OrganizationDoc | null> {
  return store.collection<OrganizationDoc>(COLLECTIONS.organizations).findOne({ _id: id });
}
