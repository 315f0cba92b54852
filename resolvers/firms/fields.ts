/**
 * Field resolvers of `Firm` (parent: the stored FirmDoc plus the requested includes). Counts come
 * from one batch of index queries per page (resolvers/parties/counts.ts).
 */
import type { RequestContext } from '../context';
import { attorneyPage } from '../attorneys/queries';
import { countLoaders } from '../parties/count-loaders';
import type { FirmWithIncludes } from './queries';

/** include=attorneys returns this many attorneys, plus attorneys_has_more. */
export const FIRM_ATTORNEYS_FIRST_PAGE = 20;

const stats = (firm: FirmWithIncludes, ctx: RequestContext) => countLoaders(ctx).firmStats.load(firm._id);
/** One attorney page per firm detail; memoized per parent so attorneys and attorneys_has_more share it. */
const firstAttorneyPages = new WeakMap<FirmWithIncludes, ReturnType<typeof attorneyPage>>();
function firstAttorneyPage(firm: FirmWithIncludes, ctx: RequestContext) {
  let page = firstAttorneyPages.get(firm);
  if (!page) {
    page = attorneyPage({ firm_id: firm._id, limit: FIRM_ATTORNEYS_FIRST_PAGE }, ctx, 'firm_attorneys');
    firstAttorneyPages.set(firm, page);
  }
  return page;
}

export const firmFieldResolvers = {
  id: (firm: FirmWithIncludes) => firm._id,
  object: () => 'firm',
  attorney_count: async (firm: FirmWithIncludes, _: unknown, ctx: RequestContext) => (await stats(firm, ctx)).attorney_count,
  trademark_count: async (firm: FirmWithIncludes, _: unknown, ctx: RequestContext) => (await stats(firm, ctx)).trademark_count,
  grant_rate: async (firm: FirmWithIncludes, _: unknown, ctx: RequestContext) => (await stats(firm, ctx)).grant_rate,
  registration_rate: async (firm: FirmWithIncludes, _: unknown, ctx: RequestContext) => (await stats(firm, ctx)).registration_rate,
  latest_filing: async (firm: FirmWithIncludes, _: unknown, ctx: RequestContext) => (await stats(firm, ctx)).latest_filing,
  stats: async (firm: FirmWithIncludes, _: unknown, ctx: RequestContext) => (firm.includes.has('stats') ? stats(firm, ctx) : null),
  attorneys: async (firm: FirmWithIncludes, _: unknown, ctx: RequestContext) =>
    firm.includes.has('attorneys') ? (await firstAttorneyPage(firm, ctx)).data : null,
  attorneys_has_more: async (firm: FirmWithIncludes, _: unknown, ctx: RequestContext) =>
    firm.includes.has('attorneys') ? (await firstAttorneyPage(firm, ctx)).has_more : null,
};
