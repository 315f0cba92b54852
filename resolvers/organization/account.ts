/**
 * The caller's organization with its effective plan, for the usage, plan and log resolvers.
 */
import { effectivePlan, type EffectivePlan } from '../../domain/plans';
import type { OrganizationDoc } from '../../domain/records';
import { findOrganization } from '../accounts/organizations';
import type { RequestContext } from '../context';

export interface Account {
  organization: OrganizationDoc;
  plan: EffectivePlan;
}

export async function callerAccount(ctx: RequestContext): Promise<Account> {
  const organization = await findOrganization(ctx.services.store, ctx.caller.organizationId);
  // Authentication already found it; only a deletion in between gets here.
  if (!organization) throw new Error(`organization ${ctx.caller.organizationId} vanished`);
  return { organization, plan: effectivePlan(organization) };
}
