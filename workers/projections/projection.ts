/**
 * An index projection: how one SearchIndex is derived from the DocumentStore. The indexer applies
 * every registered projection to each batch of change-feed events, in registration order (so a
 * projection may read an index an earlier projection has just updated, e.g. for counts).
 */
import type { ChangeEvent, DocumentStore, Filter, IndexDefinition, IndexDocument, SearchIndex, StoredDocument } from '../../datasources/ports';

export interface ProjectionContext {
  store: DocumentStore;
  search: SearchIndex;
}

export interface IndexProjection<T extends StoredDocument = StoredDocument> {
  index: IndexDefinition;
  /** Collection whose documents become index documents, one each, keyed by `_id`. */
  source: string;
  /** Maps a batch of source documents (loading what they reference in bulk). */
  toIndexDocuments(docs: readonly T[], context: ProjectionContext): Promise<IndexDocument[]>;
  /**
   * Changes in other collections that alter this index's documents: for a changed document of
   * that collection, a filter on `source` selecting the documents to re-index (null: none). May
   * look up what the event does not carry (a mark's attorneys' firms) through the context.
   */
  dependents?: Readonly<Record<string, (event: ChangeEvent, context: ProjectionContext) => Filter | null | Promise<Filter | null>>>;
}

/**
 * Erases a projection's document type so projections of different collections share one list.
 * Sound because the indexer only ever passes a projection documents of its own `source`.
 */
export function defineProjection<T extends StoredDocument>(projection: IndexProjection<T>): IndexProjection {
  return projection as unknown as IndexProjection;
}
