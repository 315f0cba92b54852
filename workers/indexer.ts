/**
 * The search indexer: keeps the SearchIndex in step with the DocumentStore by consuming the change
 * feed. A trademark's index document denormalizes its parties (owner names, countries, tickers,
 * LEIs, entities, attorneys' firms), so a change to a party re-indexes that party's marks.
 *
 * The feed position is checkpointed in the store (`meta` collection) after each applied batch;
 * re-applying a batch is harmless because upserts are idempotent.
 */
import type { DocumentStore, IndexDocument, SearchIndex, StoredDocument } from '../datasources/ports';
import { TRADEMARK_INDEX } from '../datasources/index-definitions';
import { COLLECTIONS, type AttorneyDoc, type OwnerDoc, type TrademarkDoc } from '../domain/records';

const CHECKPOINT_ID = 'indexer_position';
const FEED_COLLECTIONS = [COLLECTIONS.trademarks, COLLECTIONS.owners, COLLECTIONS.attorneys];

interface CheckpointDoc extends StoredDocument {
  position: string | null;
}

/** Lowercase, accents and punctuation folded: the key for exact and prefix mark-text matches. */
export function normalizeMarkText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export function trademarkIndexDocument(mark: TrademarkDoc, owners: ReadonlyMap<string, OwnerDoc>, attorneys: ReadonlyMap<string, AttorneyDoc>): IndexDocument {
  const markOwners = mark.owner_ids.map((id) => owners.get(id)).filter((o): o is OwnerDoc => o !== undefined);
  const markAttorneys = mark.attorney_ids.map((id) => attorneys.get(id)).filter((a): a is AttorneyDoc => a !== undefined);
  const companies = markOwners.flatMap((o) => o.companies);
  const unique = <T>(values: T[]): T[] => [...new Set(values)];
  return {
    id: mark._id,
    mark_text: mark.mark_text,
    mark_text_normalized: normalizeMarkText(mark.mark_text),
    owner_names: markOwners.map((o) => o.name),
    goods_services_text: mark.classifications.map((c) => c.goods_services_text).join('; '),
    office_code: mark.office_code,
    jurisdiction_code: mark.jurisdiction_code,
    status_primary: mark.status.primary,
    status_stage: mark.status.stage,
    status_reason: mark.status.reason,
    challenge_states: mark.status.challenge_states,
    mark_feature_type: mark.mark_feature_type,
    mark_legal_category: mark.mark_legal_category,
    right_kind: mark.right_kind,
    filing_route: mark.filing_route,
    scope_kind: mark.scope_kind,
    application_number: mark.application_number,
    registration_number: mark.registration_number,
    ir_number: mark.ir_number,
    nice_classes: unique(mark.classifications.map((c) => c.nice_class)),
    vienna_codes: mark.vienna_codes,
    owner_ids: mark.owner_ids,
    owner_countries: unique(markOwners.map((o) => o.country_code).filter((c): c is string => c !== null)),
    entity_ids: unique(markOwners.map((o) => o.entity_id)),
    attorney_ids: mark.attorney_ids,
    firm_ids: unique(markAttorneys.map((a) => a.firm_id).filter((f): f is string => f !== null)),
    owner_tickers: unique(companies.map((c) => c.ticker).filter((t): t is string => t !== null)),
    owner_leis: unique(companies.map((c) => c.lei).filter((l): l is string => l !== null)),
    owner_publicly_traded: companies.some((c) => c.ticker !== null && c.entity_status === 'ACTIVE'),
    owner_has_lei: companies.some((c) => c.lei !== null),
    has_media: mark.media.length > 0,
    has_proceedings: mark.proceeding_count > 0,
    is_madrid: mark.filing_route === 'madrid' || mark.ir_number !== null,
    is_retracted: mark.is_retracted,
    is_series_mark: mark.is_series_mark,
    filing_date: mark.filing_date,
    registration_date: mark.registration_date,
    expiry_date: mark.expiry_date,
    renewal_due_date: mark.renewal_due_date,
    publication_date: mark.publication_date,
    termination_date: mark.termination_date,
    updated_at: mark.updated_at,
  };
}

export class SearchIndexer {
  private stopped = true;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly store: DocumentStore,
    private readonly search: SearchIndex,
    private readonly onError: (error: unknown) => void = (error) => console.error('indexer:', error),
  ) {}

  private get checkpoints() {
    return this.store.collection<CheckpointDoc>(COLLECTIONS.meta);
  }

  async ensureIndexes(): Promise<void> {
    await this.search.ensureIndex(TRADEMARK_INDEX);
  }

  /** Indexes the given marks (loading their parties in one call per type). */
  async indexTrademarks(marks: readonly TrademarkDoc[]): Promise<void> {
    if (marks.length === 0) return;
    const ownerIds = [...new Set(marks.flatMap((m) => m.owner_ids))];
    const attorneyIds = [...new Set(marks.flatMap((m) => m.attorney_ids))];
    const [owners, attorneys] = await Promise.all([
      this.store.collection<OwnerDoc>(COLLECTIONS.owners).findByIds(ownerIds),
      this.store.collection<AttorneyDoc>(COLLECTIONS.attorneys).findByIds(attorneyIds),
    ]);
    const ownerMap = new Map(owners.map((o) => [o._id, o]));
    const attorneyMap = new Map(attorneys.map((a) => [a._id, a]));
    await this.search.upsert(
      TRADEMARK_INDEX.name,
      marks.map((m) => trademarkIndexDocument(m, ownerMap, attorneyMap)),
    );
  }

  /**
   * Applies every change after the checkpoint, in batches; returns how many feed events it read.
   * Callers (tests, the seed command) use it to wait until the index has caught up.
   */
  async catchUp(batchSize = 1000): Promise<number> {
    let total = 0;
    for (;;) {
      const checkpoint = await this.checkpoints.findOne({ _id: CHECKPOINT_ID });
      const batch = await this.store.readChanges(checkpoint?.position ?? null, batchSize, FEED_COLLECTIONS);
      if (batch.events.length === 0) return total;
      total += batch.events.length;
      const markIds = new Set<string>();
      const removed = new Set<string>();
      const partyFilters: Array<{ owner_ids: string } | { attorney_ids: string }> = [];
      for (const event of batch.events) {
        if (event.collection === COLLECTIONS.trademarks) {
          if (event.operation === 'delete') {
            removed.add(event.documentId);
            markIds.delete(event.documentId);
          } else {
            markIds.add(event.documentId);
            removed.delete(event.documentId);
          }
        } else if (event.operation !== 'insert') {
          // A new party has no marks yet; an updated one may have many.
          partyFilters.push(event.collection === COLLECTIONS.owners ? { owner_ids: event.documentId } : { attorney_ids: event.documentId });
        }
      }
      const marks = this.store.collection<TrademarkDoc>(COLLECTIONS.trademarks);
      const changed = await marks.findByIds([...markIds]);
      const ofParties = partyFilters.length > 0 ? await marks.find({ $or: partyFilters }) : [];
      const byId = new Map([...changed, ...ofParties].map((m) => [m._id, m]));
      await this.indexTrademarks([...byId.values()]);
      if (removed.size > 0) await this.search.remove(TRADEMARK_INDEX.name, [...removed]);
      await this.checkpoints.replaceOne({ _id: CHECKPOINT_ID, position: batch.position });
    }
  }

  /**
   * Re-indexes every mark from the store (first start, after a bulk seed), then moves the
   * checkpoint to the feed position taken before the scan, so later changes are still applied.
   */
  async rebuild(onProgress?: (done: number) => void, pageSize = 2000): Promise<number> {
    const position = await this.store.latestPosition();
    const marks = this.store.collection<TrademarkDoc>(COLLECTIONS.trademarks);
    let after = '';
    let done = 0;
    for (;;) {
      const page = await marks.find({ _id: { $gt: after } }, { sort: { _id: 1 }, limit: pageSize });
      if (page.length === 0) break;
      await this.indexTrademarks(page);
      done += page.length;
      after = (page[page.length - 1] as TrademarkDoc)._id;
      onProgress?.(done);
    }
    await this.checkpoints.replaceOne({ _id: CHECKPOINT_ID, position });
    return done;
  }

  /** Runs `catchUp` whenever the store reports writes, until `stop`. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loop = (async () => {
      while (!this.stopped) {
        try {
          await this.catchUp();
          const checkpoint = await this.checkpoints.findOne({ _id: CHECKPOINT_ID });
          await this.store.waitForChanges(checkpoint?.position ?? null, 1000);
        } catch (error) {
          this.onError(error);
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
    this.loop = null;
  }
}
