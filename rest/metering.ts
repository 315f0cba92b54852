/**
 * The metering stage: one request-log row per business request (authenticated routes, whatever the
 * outcome, 401s aside since they belong to no organization), written after the response is sent.
 *
 * Rows go through a small buffer: the Fastify `onResponse` hook queues the row, and the buffer is
 * written with one insertMany when it holds `maxBatch` rows (100) or `flushDelayMs` (25 ms) after
 * the first queued row, whichever comes first. The response never waits for the store, and a
 * burst costs one write per batch; a row is readable (GET /v1/organization/logs, feedback
 * enrichment by request_id) about 25 ms after its response. A failed write is reported through
 * `log` and dropped: losing a log row must not fail or slow requests.
 *
 * Rows older than the retention (122 days, "about four months") are deleted by the retention
 * worker (workers/retention.ts).
 */
import type { DocumentStore } from '../datasources/ports';
import { COLLECTIONS, type RequestLogDoc } from '../domain/records';
import type { Caller } from '../resolvers/context';

/** Error details are kept whole up to this length (they name a parameter and a rule). */
export const MAX_ERROR_DETAIL = 1000;

/** What the lifecycle knows about one request when its response has been sent. */
export interface Exchange {
  requestId: string;
  organizationId: string;
  apiKeyId: string | null;
  routePath: string;
  method: string;
  startedAt: Date;
  error: { type: string; detail: string } | null;
}

/** The exchange of an authenticated request, opened once the caller is known. */
export function openExchange(requestId: string, caller: Pick<Caller, 'organizationId' | 'apiKeyId'>, routePath: string, method: string): Exchange {
  // The wall clock, not Services.now(): tests pin the latter to fix "today".
  return { requestId, organizationId: caller.organizationId, apiKeyId: caller.apiKeyId, routePath, method, startedAt: new Date(), error: null };
}

export function requestLogRow(exchange: Exchange, statusCode: number, durationMs: number): RequestLogDoc {
  return {
    _id: exchange.requestId,
    organization_id: exchange.organizationId,
    api_key_id: exchange.apiKeyId,
    route: exchange.routePath,
    method: exchange.method,
    status_code: statusCode,
    error_type: exchange.error?.type ?? null,
    error_detail: exchange.error === null ? null : exchange.error.detail.slice(0, MAX_ERROR_DETAIL),
    duration_ms: Math.max(0, Math.round(durationMs * 1000) / 1000),
    occurred_at: exchange.startedAt.toISOString(),
  };
}

export interface RequestLogWriterOptions {
  flushDelayMs?: number;
  maxBatch?: number;
  /** Where a lost flush is reported (the server's log). */
  log: (message: string, error?: unknown) => void;
}

export class RequestLogWriter {
  private queue: RequestLogDoc[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private readonly flushDelayMs: number;
  private readonly maxBatch: number;
  private readonly log: (message: string, error?: unknown) => void;

  constructor(
    private readonly store: DocumentStore,
    options: RequestLogWriterOptions,
  ) {
    this.flushDelayMs = options.flushDelayMs ?? 25;
    this.maxBatch = options.maxBatch ?? 100;
    this.log = options.log;
  }

  record(row: RequestLogDoc): void {
    this.queue.push(row);
    if (this.queue.length >= this.maxBatch) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.flushDelayMs);
  }

  /** Writes everything queued so far; resolves when it (and any earlier write) is stored. */
  flush(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.queue;
    this.queue = [];
    if (batch.length > 0) {
      this.writing = this.writing.then(() =>
        this.store
          .collection<RequestLogDoc>(COLLECTIONS.requestLogs)
          .insertMany(batch)
          .catch((error: unknown) => this.log(`request log: ${batch.length} rows lost`, error)),
      );
    }
    return this.writing;
  }

  async close(): Promise<void> {
    await this.flush();
  }
}
