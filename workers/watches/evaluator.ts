/**
 * The watch evaluator: reads every new trademark version from the change feed (the
 * `trademark_changes` rows the one write path appends), finds the active watches it concerns and
 * writes their alerts, with an `alert.created` entry in the organization's event log.
 *
 * Exactly once: a batch's alerts, events, watch counters and the feed checkpoint commit in one
 * store transaction, so after a crash (also `kill -9`) the batch is either wholly done or wholly
 * read again. An alert's ID is derived from watch + mark + version (and the change's time, so
 * alerts still list newest first): read again, a change produces the same alerts, which are
 * already there and are not written twice.
 *
 * A watch hears of the changes that occurred while it was active (after its creation, outside its
 * paused periods), whenever the evaluator reads them: what happened while it was paused is not
 * replayed, and what happened before a pause is not lost to it. Likewise it matches a change with
 * the query it had when the change occurred (domain/watch-queries.ts): read after a PATCH of the
 * query, a change alerts as it would have before it, and not as the new query would have it.
 *
 * Each change is matched against the mark as that version left it, not as it is now: catching up
 * after a stop (or two versions in one batch), the evaluator undoes the later versions' changes
 * (domain/trademark-changes.ts recordAtVersion), so it makes the alerts a run that kept up made.
 */
import type { DocumentStore } from '../../datasources/ports';
import { derivedTimeId } from '../../domain/ids';
import { computeDeadlinesBatch } from '../../domain/deadlines';
import { deadlineInputOf } from '../../domain/mark-deadlines';
import {
  COLLECTIONS,
  type AlertDoc,
  type AlertTrigger,
  type EventDoc,
  type TrademarkChangeDoc,
  type TrademarkDoc,
  type WatchDoc,
  type WatchStatsDoc,
} from '../../domain/records';
import { ruleCorpus } from '../../resolvers/deadlines/corpus';
import { publicChangedFields, recordAtVersion } from '../../domain/trademark-changes';
import { hearsChangeAt } from '../../domain/watch-periods';
import { inForceAt } from '../../domain/watch-queries';
import { classifyChange, isMatchRelevant } from '../../domain/watch-triggers';
import { oppositionWindowFor } from '../../resolvers/trademarks/opposition-window';
import { portfolioMarksOf } from '../../resolvers/watches/portfolio-marks';
import { WATCH_EVALUATOR_CHECKPOINT_ID, WATCH_EVALUATOR_FEED } from '../feed-checkpoints';
import { FeedConsumer } from '../feed-consumer';
import { FeedLoop } from '../feed-loop';
import { trademarkProjection } from '../projections/trademarks';
import type { SearchIndex } from '../../datasources/ports';
import { WatchTable, type CompiledWatch } from './match';
import type { SimilarityResult } from '../../domain/similarity';

export interface EvaluationReport {
  changes: number;
  alerts: number;
}

/** What a compiled watch table is built from. */
const WATCH_TABLE_SOURCES = [COLLECTIONS.watches, COLLECTIONS.portfolios];

export class WatchEvaluator {
  private readonly loop: FeedLoop;
  /** The UTC day of the last renewal sweep. */
  private sweptOn = '';
  private readonly feed: FeedConsumer;
  private compiled: { key: string; table: WatchTable } | null = null;

  constructor(
    private readonly store: DocumentStore,
    private readonly search: SearchIndex,
    private readonly now: () => Date = () => new Date(),
    onError: (error: unknown) => void = (error) => console.error('watch evaluator:', error),
  ) {
    this.loop = new FeedLoop(store, () => this.pass(), onError);
    this.feed = new FeedConsumer(store, WATCH_EVALUATOR_CHECKPOINT_ID, WATCH_EVALUATOR_FEED);
  }

  /** The feed position evaluated up to (null before anything was read; undefined before initialize). */
  get evaluatedPosition(): string | null | undefined {
    return this.feed.consumedPosition;
  }

  /**
   * Loads the checkpoint, or on the very first run sets it to the feed's end (watches are about
   * what happens from now on; earlier changes predate every watch).
   */
  initialize(): Promise<void> {
    return this.feed.initialize();
  }

  /** Evaluates every change after the checkpoint; returns what it read and wrote. */
  async catchUp(batchSize = 500): Promise<EvaluationReport> {
    const report: EvaluationReport = { changes: 0, alerts: 0 };
    await this.feed.consume(
      batchSize,
      (event) => event.operation !== 'delete' && event.document !== null,
      async (events, position) => {
        const changes = events.map((event) => ({ change: event.document as unknown as TrademarkChangeDoc, occurredAt: event.occurredAt }));
        const { alerts, touched } = await this.evaluate(changes);
        report.alerts += await this.storeAlerts(alerts, touched, position);
        report.changes += changes.length;
      },
    );
    return report;
  }

  private async evaluate(changes: ReadonlyArray<{ change: TrademarkChangeDoc; occurredAt: string }>) {
    const table = await this.watchTable();
    const versions = await this.versionsOf(changes.map(({ change }) => change));
    const versionKeys = [...versions.keys()];
    const indexDocs = new Map(
      (await trademarkProjection.toIndexDocuments([...versions.values()], { store: this.store, search: this.search })).map((doc, i) => [versionKeys[i], doc]),
    );
    const now = this.now();
    const alerts: AlertDoc[] = [];
    const made = new Set<string>();
    const touched = new Map<string, { lastChangeAt: string }>();

    for (const { change, occurredAt } of changes) {
      const mark = versions.get(versionKey(change));
      const doc = indexDocs.get(versionKey(change));
      if (!mark || !doc) continue;
      const trigger = classifyChange(change, mark);
      const hits: Array<{ compiled: CompiledWatch; similarity: SimilarityResult | null }> = [];
      if (trigger !== null) for (const compiled of table.trademarkWatches(mark._id)) hits.push({ compiled, similarity: null });
      if (trigger !== null && isMatchRelevant(change)) {
        for (const compiled of table.matchingFilterWatches(doc)) hits.push({ compiled, similarity: null });
        const classes = mark.classifications.map((c) => c.nice_class);
        for (const { compiled, result } of table.matchingSimilarityWatches(doc, classes)) hits.push({ compiled, similarity: result });
      }
      for (const { compiled, similarity } of hits) {
        const watch = compiled.watch;
        if (trigger === null || !hearsChangeAt(watch, occurredAt) || !inForceAt(compiled.period, occurredAt)) continue;
        touched.set(watch._id, { lastChangeAt: occurredAt });
        // A mark already covered by this version for this watch (listed twice) alerts once.
        const alertId = derivedTimeId('alt_', Date.parse(occurredAt), `${watch._id}:${mark._id}:v${change.version}`);
        if (made.has(alertId)) continue;
        made.add(alertId);
        const alertTrigger: AlertTrigger = {
          type: trigger.type,
          record_version: change.version,
          changed_fields: publicChangedFields(change.changed_fields),
          event_type: trigger.event_type,
          occurred_at: occurredAt,
        };
        alerts.push(newAlert(alertId, watch, mark, alertTrigger, similarity, now));
      }
    }
    return { alerts, touched };
  }

  /**
   * Each change's mark as that version left it, keyed by `versionKey`: the stored record, or, when
   * the mark has moved on since (the evaluator catching up after a stop, or two versions in one
   * batch), the record with the later versions' changes undone. So a change is matched as it was
   * when it happened: an uninterrupted run and one that catches up make the same alerts.
   */
  private async versionsOf(changes: readonly TrademarkChangeDoc[]): Promise<Map<string, TrademarkDoc>> {
    const markIds = [...new Set(changes.map((change) => change.trademark_id))];
    const current = new Map((await this.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).findByIds(markIds)).map((mark) => [mark._id, mark]));
    const laterIds = new Set<string>();
    for (const change of changes) {
      const mark = current.get(change.trademark_id);
      for (let version = change.version + 1; mark !== undefined && version <= mark.version; version++) laterIds.add(`${mark._id}:v${version}`);
    }
    const later = laterIds.size === 0 ? [] : await this.store.collection<TrademarkChangeDoc>(COLLECTIONS.trademarkChanges).findByIds([...laterIds]);
    const laterByMark = new Map<string, TrademarkChangeDoc[]>();
    for (const row of later) laterByMark.set(row.trademark_id, [...(laterByMark.get(row.trademark_id) ?? []), row]);
    const versions = new Map<string, TrademarkDoc>();
    for (const change of changes) {
      const mark = current.get(change.trademark_id);
      if (mark === undefined || versions.has(versionKey(change))) continue;
      versions.set(versionKey(change), recordAtVersion(mark, change.version, laterByMark.get(mark._id) ?? []));
    }
    return versions;
  }

  /**
   * The active watches compiled, kept until the watches or portfolios may have changed (the
   * store's change tokens, read before the data): a stream of single changes does not recompile
   * a thousand watches for each.
   */
  private async watchTable(): Promise<WatchTable> {
    const tokens = await Promise.all(WATCH_TABLE_SOURCES.map((collection) => this.store.changeToken(collection)));
    const key = tokens.some((token) => token === null) ? null : tokens.join('|');
    if (key !== null && this.compiled?.key === key) return this.compiled.table;
    // Paused watches too: a change that occurred before the pause is still theirs (hearsChangeAt).
    const watches = await this.store.collection<WatchDoc>(COLLECTIONS.watches).find({ status: { $in: ['active', 'paused'] } });
    // Earlier queries too: one may name a portfolio the current query no longer does.
    const queries = watches.flatMap((watch) => [watch, ...(watch.earlier_queries ?? [])]);
    const table = new WatchTable(watches, await portfolioMarksOf(this.store, queries));
    const stats = this.store.collection<WatchStatsDoc>(COLLECTIONS.watchStats);
    for (const [watchId, message] of table.failures) {
      await stats.updateOne({ _id: watchId }, { $set: { last_error: message }, $setOnInsert: { last_change_at: null, alerts_created: 0 } }, { upsert: true });
    }
    this.compiled = key === null ? null : { key, table };
    return table;
  }

  /**
   * Writes new alerts, their `alert.created` events and the watches' counters in one transaction
   * with the feed checkpoint (when given); alerts already stored (a batch read again) are skipped.
   * Returns how many alerts were new.
   */
  private async storeAlerts(alerts: readonly AlertDoc[], touched: ReadonlyMap<string, { lastChangeAt: string }>, position?: string | null): Promise<number> {
    return this.store.transaction(async () => {
      const alertRows = this.store.collection<AlertDoc>(COLLECTIONS.alerts);
      const existing = new Set((await alertRows.findByIds(alerts.map((alert) => alert._id))).map((alert) => alert._id));
      const fresh = alerts.filter((alert) => !existing.has(alert._id));
      if (fresh.length > 0) {
        await alertRows.insertMany(fresh);
        await this.store.collection<EventDoc>(COLLECTIONS.events).insertMany(fresh.map(alertCreatedEvent));
      }
      const stats = this.store.collection<WatchStatsDoc>(COLLECTIONS.watchStats);
      for (const watchId of new Set([...touched.keys(), ...fresh.map((alert) => alert.watch_id)])) {
        const created = fresh.filter((alert) => alert.watch_id === watchId).length;
        const lastChangeAt = touched.get(watchId)?.lastChangeAt;
        await stats.updateOne(
          { _id: watchId },
          {
            $setOnInsert: { last_error: null, ...(lastChangeAt ? {} : { last_change_at: null }) },
            ...(lastChangeAt ? { $set: { last_change_at: lastChangeAt } } : {}),
            $inc: { alerts_created: created },
          },
          { upsert: true },
        );
      }
      if (position !== undefined) await this.feed.saveCheckpoint(position);
      return fresh.length;
    });
  }

  /**
   * Time, not a change, opens a renewal window: once a day, every active trademark watch is
   * checked for renewal windows of its marks that have opened by today, and opened on or after the
   * day the watch began evaluating. The alert's identity is watch + mark + the renewal's due date
   * (the occurrence it announces), so a sweep run twice, or after a restart, alerts once.
   */
  async sweepRenewalWindows(): Promise<number> {
    const now = this.now();
    const watches = await this.store.collection<WatchDoc>(COLLECTIONS.watches).find({ status: 'active', watch_type: 'trademark' });
    if (watches.length === 0) return 0;
    const portfolios = await portfolioMarksOf(this.store, watches);
    const idsOf = (watch: WatchDoc): readonly string[] => watch.query.trademark_ids ?? portfolios.get(watch.query.portfolio_id ?? '') ?? [];
    const marks = new Map(
      (await this.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).findByIds([...new Set(watches.flatMap(idsOf))])).map((mark) => [mark._id, mark]),
    );
    const alerts: AlertDoc[] = [];
    for (const watch of watches) {
      for (const id of idsOf(watch)) {
        const mark = marks.get(id);
        if (!mark) continue;
        const [computation] = computeDeadlinesBatch(ruleCorpus, [deadlineInputOf(mark)], {
          now,
          horizonYears: 2,
          includeOptional: false,
          includeMissed: false,
        });
        for (const deadline of computation?.deadlines ?? []) {
          const opens = deadline.window_opens;
          if (deadline.type !== 'renewal' || opens === null || deadline.status === 'future' || opens < watch.evaluate_from.slice(0, 10)) continue;
          const trigger: AlertTrigger = {
            type: 'renewal_window_opened',
            record_version: mark.version,
            changed_fields: [],
            event_type: null,
            occurred_at: `${opens}T00:00:00.000Z`,
          };
          const alertId = derivedTimeId('alt_', Date.parse(trigger.occurred_at), `${watch._id}:${mark._id}:renewal:${deadline.due_date}`);
          alerts.push({ ...newAlert(alertId, watch, mark, trigger, null, now), must_act_by: deadline.due_date });
        }
      }
    }
    return alerts.length === 0 ? 0 : this.storeAlerts(alerts, new Map());
  }

  /**
   * Runs `catchUp` whenever the store reports writes (and the renewal sweep once a day), until
   * `stop`, going on from the persisted checkpoint (another process may have run it meanwhile).
   */
  start(): void {
    this.feed.resume();
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One pass of the loop: the day's renewal sweep when due, then the changes. */
  private async pass(): Promise<string | null> {
    const today = this.now().toISOString().slice(0, 10);
    if (today !== this.sweptOn) {
      await this.sweepRenewalWindows();
      this.sweptOn = today;
    }
    await this.catchUp();
    return this.feed.consumedPosition ?? null;
  }
}

const versionKey = (change: Pick<TrademarkChangeDoc, 'trademark_id' | 'version'>): string => `${change.trademark_id}:v${change.version}`;

/** A new open alert of `watch` about `mark`, with the mark's opposition window as trademark detail computes it. */
function newAlert(id: string, watch: WatchDoc, mark: TrademarkDoc, trigger: AlertTrigger, similarity: SimilarityResult | null, now: Date): AlertDoc {
  const window = oppositionWindowFor(mark, now);
  const at = now.toISOString();
  return {
    _id: id,
    organization_id: watch.organization_id,
    watch_id: watch._id,
    watch_type: watch.watch_type,
    trademark_id: mark._id,
    status: 'open',
    trigger,
    score: similarity?.score ?? null,
    signals: similarity?.signals.map((signal) => ({ type: signal.type, strength: signal.strength, detail: signal.detail })) ?? null,
    must_act_by: window.must_act_by,
    opposition_window_status: window.status,
    created_at: at,
    updated_at: at,
  };
}

/** The `alert.created` event of an alert (spec: Events; payload members shown there, and the rest). */
export function alertCreatedEvent(alert: AlertDoc): EventDoc {
  return {
    _id: derivedTimeId('evt_', Date.parse(alert.trigger.occurred_at), `alert.created:${alert._id}`),
    organization_id: alert.organization_id,
    type: 'alert.created',
    data: {
      alert_id: alert._id,
      watch_id: alert.watch_id,
      trademark_id: alert.trademark_id,
      trademark_record_id: alert.trademark_id,
      trigger: alert.trigger.type,
      record_version: alert.trigger.record_version,
      score: alert.score,
      must_act_by: alert.must_act_by,
      opposition_window_status: alert.opposition_window_status,
    },
    created_at: alert.created_at,
  };
}
