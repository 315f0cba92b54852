/**
 * Query fields of the trademark area: detail, batch, search, and the sub-resources of one mark
 * (changes, source, history, related marks, coverage).
 */
import { gunzipSync } from 'node:zlib';
import { invalid } from '../../domain/errors';
import { COLLECTIONS, type TrademarkChangeDoc, type TrademarkDoc, type TrademarkRawRecordDoc, type TrademarkSourceDoc } from '../../domain/records';
import { publicChange, storedFieldNames } from '../../domain/trademark-changes';
import { parseId } from '../../domain/validation';
import type { Filter } from '../../datasources/ports';
import { paginationOf, totalIf } from '../pages';
import type { RequestContext } from '../context';
import { pageLimit } from '../page-limit';
import { trademarkCoverage } from './coverage';
import { trademarkHistory, type HistoryArgs } from './history';
import { requireTrademark } from './load';
import { relatedTrademarks } from './related';
import { searchTrademarks, type TrademarkSearchArgs } from './search';

export const MAX_BATCH_IDS = 100;

async function trademarksByIds(ids: readonly string[], ctx: RequestContext) {
  if (ids.length === 0) throw invalid('ids', 'must list at least one ID');
  if (ids.length > MAX_BATCH_IDS) throw invalid('ids', `must list at most ${MAX_BATCH_IDS} IDs (got ${ids.length})`);
  const unique = [...new Set(ids)];
  unique.forEach((id, i) => parseId(`ids[${i}]`, id, 'tm_'));
  const loaded = await ctx.loaders.trademarks.loadMany(unique);
  const data: TrademarkDoc[] = [];
  const notFoundIds: string[] = [];
  loaded.forEach((doc, i) => {
    if (doc && !(doc instanceof Error)) data.push(doc);
    else notFoundIds.push(unique[i] as string);
  });
  return { data, has_more: false, pagination: { cursor: null }, not_found: notFoundIds };
}

interface ChangesArgs {
  id: string;
  changed_field?: string | null;
  sort?: string | null;
  limit?: number | null;
  cursor?: string | null;
  include_total?: boolean | null;
}

/**
 * Versions of one mark, newest first by default. Keyset on `version`; the cursor pins the highest
 * version seen on the first page so versions recorded later never appear mid-session. Field names
 * are the contract's (domain/trademark-changes.ts): `changed_field` also matches records stored
 * under a legacy name of the field, and every record is served under the public names.
 */
async function trademarkChanges(args: ChangesArgs, ctx: RequestContext) {
  const mark = await requireTrademark(args.id, ctx);
  const sort = args.sort ?? '-changed_at';
  if (sort !== '-changed_at' && sort !== 'changed_at') throw invalid('sort', `must be -changed_at or changed_at (got '${sort}')`);
  const limit = pageLimit(args.limit);
  const descending = sort === '-changed_at';
  const binding = { list: 'trademark_changes', id: mark._id, changed_field: args.changed_field ?? null, sort };
  const position = args.cursor ? ctx.services.cursors.decode(args.cursor, binding) : null;
  const snapshot = position?.snapshot ?? mark.version;

  const list: Filter = { trademark_id: mark._id, version: { $lte: snapshot } };
  if (args.changed_field) {
    const names = storedFieldNames(args.changed_field);
    list.changed_fields = names.length === 1 ? names[0] : { $in: names };
  }
  const after = position?.after[0];
  const filter: Filter = typeof after === 'number' ? { $and: [list, { version: { [descending ? '$lt' : '$gt']: after } }] } : list;

  const changes = ctx.services.store.collection<TrademarkChangeDoc>(COLLECTIONS.trademarkChanges);
  const [rows, total] = await Promise.all([
    changes.find(filter, { sort: { version: descending ? -1 : 1 }, limit: limit + 1 }),
    totalIf(args.include_total, () => changes.countDocuments(list)),
  ]);
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const last = page[page.length - 1];
  return {
    data: page.map((row) => ({ ...publicChange(row), object: 'trademark_change' })),
    has_more: hasMore,
    pagination: paginationOf(hasMore && last ? ctx.services.cursors.encode(binding, { snapshot, after: [last.version] }) : null, total),
  };
}

/** The raw record of a source observation as text, or null when none was kept. */
async function rawRecord(sourceId: string, ctx: RequestContext): Promise<string | null> {
  const [raw] = await ctx.services.store.collection<TrademarkRawRecordDoc>(COLLECTIONS.trademarkRawRecords).findByIds([sourceId]);
  return raw ? gunzipSync(Buffer.from(raw.gzip_base64, 'base64')).toString('utf8') : null;
}

/**
 * Latest raw-record provenance; a reduced record when no raw version is stored (spec). The raw
 * record itself is read only when selected (`raw_record`, REST include=raw).
 */
async function trademarkSource(id: string, ctx: RequestContext) {
  const mark = await requireTrademark(id, ctx);
  const [latest] = await ctx.services.store
    .collection<TrademarkSourceDoc>(COLLECTIONS.trademarkSources)
    .find({ trademark_id: mark._id }, { sort: { observed_at: -1 }, limit: 1 });
  if (!latest) {
    return {
      object: 'trademark_source',
      trademark_id: mark._id,
      office_code: mark.office_code,
      observed_at: mark.source_updated_at,
      source_format: 'bulk_xml',
      source_response_type: null,
      source_locator: null,
      payload_hash: null,
      source_data_date: null,
    };
  }
  const { _id: sourceId, ...source } = latest;
  // Observations stored before data dates were kept have none.
  return { object: 'trademark_source', ...source, source_data_date: source.source_data_date ?? null, source_id: sourceId };
}

/** `raw_record` is read only when the operation selects it. */
export const trademarkSourceFieldResolvers = {
  raw_record: (source: { source_id?: string }, _args: unknown, ctx: RequestContext) => (source.source_id ? rawRecord(source.source_id, ctx) : null),
};

export const trademarkQueryResolvers = {
  trademark: (_: unknown, args: { id: string }, ctx: RequestContext) => requireTrademark(args.id, ctx),
  trademarksByIds: (_: unknown, args: { ids: string[] }, ctx: RequestContext) => trademarksByIds(args.ids, ctx),
  searchTrademarks: (_: unknown, args: TrademarkSearchArgs, ctx: RequestContext) =>
    searchTrademarks(args, ctx, { requireFilter: true, listName: 'trademarks' }),
  trademarkChanges: (_: unknown, args: ChangesArgs, ctx: RequestContext) => trademarkChanges(args, ctx),
  trademarkSource: (_: unknown, args: { id: string }, ctx: RequestContext) => trademarkSource(args.id, ctx),
  trademarkHistory: (_: unknown, args: HistoryArgs, ctx: RequestContext) => trademarkHistory(args, ctx),
  relatedTrademarks: (_: unknown, args: { id: string }, ctx: RequestContext) => relatedTrademarks(args.id, ctx),
  trademarkCoverage: (_: unknown, args: { id: string }, ctx: RequestContext) => trademarkCoverage(args.id, ctx),
};
