/**
 * The marks of the portfolios trademark watches follow, read when the watches are evaluated or
 * checked, so a mark added to a portfolio is watched from then on without touching the watch.
 */
import type { DocumentStore, StoredDocument } from '../../datasources/ports';
import type { WatchDoc } from '../../domain/records';

interface PortfolioDoc extends StoredDocument {
  trademark_ids: string[];
}

export async function portfolioMarksOf(store: DocumentStore, watches: readonly WatchDoc[]): Promise<Map<string, string[]>> {
  const ids = [...new Set(watches.map((watch) => watch.query.portfolio_id).filter((id): id is string => id !== undefined))];
  if (ids.length === 0) return new Map();
  const portfolios = await store.collection<PortfolioDoc>('portfolios').findByIds(ids);
  return new Map(portfolios.map((portfolio) => [portfolio._id, portfolio.trademark_ids]));
}
