/**
 * The change-feed consumers and the `meta` documents holding their persisted positions. The
 * retention worker keeps every feed entry that one of them has not read yet.
 */
import { IMAGE_INDEXER_CHECKPOINT_ID, IMAGE_REBUILD_PROGRESS_ID } from '../datasources/image-index';
import { COLLECTIONS } from '../domain/records';

export const INDEXER_CHECKPOINT_ID = 'indexer_position';
export const WATCH_EVALUATOR_CHECKPOINT_ID = 'watch_evaluator_position';
export const WEBHOOK_DISPATCHER_CHECKPOINT_ID = 'webhook_dispatcher_position';

export const FEED_CHECKPOINT_IDS: readonly string[] = [
  INDEXER_CHECKPOINT_ID,
  WATCH_EVALUATOR_CHECKPOINT_ID,
  WEBHOOK_DISPATCHER_CHECKPOINT_ID,
  IMAGE_INDEXER_CHECKPOINT_ID,
  // While a rebuild is unfinished the image indexer has no checkpoint; its progress holds the position it goes on from.
  IMAGE_REBUILD_PROGRESS_ID,
];

/** The feed collections the watch evaluator and the webhook dispatcher read (the indexer's follow from its projections). */
export const WATCH_EVALUATOR_FEED: readonly string[] = [COLLECTIONS.trademarkChanges];
export const WEBHOOK_DISPATCHER_FEED: readonly string[] = [COLLECTIONS.events];
