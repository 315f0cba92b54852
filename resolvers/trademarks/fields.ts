/**
 * Field resolvers of the `Trademark` type. The parent is the stored `TrademarkDoc`; fields with
 * the same name resolve by default, the rest are derived here (parties through DataLoaders).
 */
import type { Classification, TrademarkDoc } from '../../domain/records';
import type { RequestContext } from '../context';
import { loadPresent } from '../loaders';
import { oppositionWindowFor } from './opposition-window';

/** List rows carry a summary of goods/services text unless `include=full_goods_services`. */
export const GOODS_SERVICES_SUMMARY_LENGTH = 200;

export function summarizeGoodsServices(text: string): string {
  if (text.length <= GOODS_SERVICES_SUMMARY_LENGTH) return text;
  const cut = text.lastIndexOf(' ', GOODS_SERVICES_SUMMARY_LENGTH - 1);
  return `${text.slice(0, cut > 0 ? cut : GOODS_SERVICES_SUMMARY_LENGTH - 1).replace(/[;,]$/, '')}…`;
}

export const trademarkFieldResolvers = {
  id: (doc: TrademarkDoc) => doc._id,
  object: () => 'trademark',
  is_madrid: (doc: TrademarkDoc) => doc.filing_route === 'madrid' || doc.ir_number !== null,
  has_media: (doc: TrademarkDoc) => doc.media.length > 0,
  has_proceedings: (doc: TrademarkDoc) => doc.proceeding_count > 0,
  // Records stored before owner histories were kept have none.
  owner_history: (doc: TrademarkDoc) => doc.owner_history ?? [],
  classifications: (doc: TrademarkDoc, args: { full_goods_services?: boolean | null }): Classification[] =>
    args.full_goods_services === false
      ? doc.classifications.map((c) => ({ ...c, goods_services_text: summarizeGoodsServices(c.goods_services_text) }))
      : doc.classifications,
  owner_name: async (doc: TrademarkDoc, _args: unknown, ctx: RequestContext) => {
    const first = doc.owner_ids[0];
    return first === undefined ? null : ((await ctx.loaders.owners.load(first))?.name ?? null);
  },
  owners: async (doc: TrademarkDoc, _args: unknown, ctx: RequestContext) =>
    (await loadPresent(ctx.loaders.owners, doc.owner_ids)).map((owner) => ({
      id: owner._id,
      name: owner.name,
      country_code: owner.country_code,
      entity_id: owner.entity_id,
      entity_id_type: owner.entity_id_type,
      companies: owner.companies,
    })),
  attorneys: async (doc: TrademarkDoc, _args: unknown, ctx: RequestContext) => {
    const attorneys = await loadPresent(ctx.loaders.attorneys, doc.attorney_ids);
    const firms = await ctx.loaders.firms.loadMany(attorneys.map((a) => a.firm_id).filter((id): id is string => id !== null));
    const firmNames = new Map(firms.flatMap((f) => (f && !(f instanceof Error) ? [[f._id, f.name] as const] : [])));
    return attorneys.map((a) => ({
      id: a._id,
      name: a.name,
      country_code: a.country_code,
      firm_id: a.firm_id,
      firm_name: a.firm_id === null ? null : (firmNames.get(a.firm_id) ?? null),
    }));
  },
  opposition_window: (doc: TrademarkDoc, _args: unknown, ctx: RequestContext) => oppositionWindowFor(doc, ctx.services.now()),
};
