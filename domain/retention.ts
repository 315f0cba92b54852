/**
 * How long Marque keeps what it only keeps for a while (spec: Other constants, and decisions
 * documented in ARCHITECTURE.md), and the cut-off instant for a retention.
 */

/** Request logs: "about four months". */
export const REQUEST_LOG_RETENTION_DAYS = 122;
/**
 * Change-feed entries every consumer has read are kept this long more (for a consumer restored
 * from an older checkpoint, and for inspection); entries some consumer has not read are kept.
 */
export const FEED_RETENTION_DAYS = 7;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Anything that happened before this instant is past a retention of `days`. */
export function retentionCutoff(now: Date, days: number): string {
  return new Date(now.getTime() - days * DAY_MS).toISOString();
}
