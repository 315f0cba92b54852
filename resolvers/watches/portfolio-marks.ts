/**
 * The marks of the portfolios trademark watches follow, read when the watches are evaluated or
 * checked, so a mark added to a portfolio is watched from then on without touching the watch.
 */
import type { DocumentStore } from '../../datasources/ports';
import { COLLECTIONS, type PortfolioDoc, type WatchDoc } from '../../domain/records';

export async function portfolioMarksOf(store: DocumentStore, watches: readonly Pick<WatchDoc, 'query'>[]): Promise<Map<string, string[]>> {
  const ids = [...new Set(watches.map((watch) => watch.query.portfolio_id).filter((id): id is string => id !== undefined))];
  if (ids.length === 0) return new Map();
  const portfolios = await store.collection<PortfolioDoc>(COLLECTIONS.portfolios).findByIds(ids);
  return new Map(portfolios.map((portfolio) => [portfolio._id, portfolio.trademark_ids]));
}
