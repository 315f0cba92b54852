/**
 * Prometheus metrics (prom-client): HTTP requests and their latency per route template, method
 * and status; limit and quota refusals per pool and type; and whatever gauges the composition
 * root registers (worker backlogs, the webhook queue). Served at `GET /metrics` in the text
 * exposition format.
 *
 * Access: with MARQUE_METRICS_TOKEN set, only with `Authorization: Bearer <token>`; without it,
 * open in development and switched off (404) in production, so a deployment never exposes its
 * traffic figures on the public port by accident.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { ApiError } from '../domain/errors';
import { sendError } from './errors';

const METRICS_PATH = '/metrics';

export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'marque_http_requests_total',
    help: 'HTTP requests answered, by route template, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'marque_http_request_duration_seconds',
    help: 'Time from request to response, by route template, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly refusals = new Counter({
    name: 'marque_limit_refusals_total',
    help: 'Requests refused by a per-minute window, a quota or a plan feature, by pool and error type.',
    labelNames: ['pool', 'type'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'marque_' });
  }

  /** One answered request; `route` is the route template (unmatched paths: "unmatched"). */
  observe(route: string, method: string, status: number, seconds: number): void {
    const labels = { route, method, status: String(status) };
    this.requests.inc(labels);
    this.latency.observe(labels, seconds);
  }

  refused(pool: string, type: string): void {
    this.refusals.inc({ pool, type });
  }
}

export interface MetricsAccess {
  /** MARQUE_METRICS_TOKEN, or null. */
  token: string | null;
  production: boolean;
  /**
   * The exposition text; default this process's registry. Under `serve --workers N` the primary
   * process sums every worker's registry (prom-client's AggregatorRegistry), whichever worker was asked.
   */
  exposition?: () => Promise<string>;
}

function tokenMatches(authorization: string | undefined, token: string): boolean {
  const sent = Buffer.from(/^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}

export function mountMetrics(app: FastifyInstance, metrics: Metrics, access: MetricsAccess): void {
  app.get(METRICS_PATH, async (request, reply) => {
    if (access.token === null && access.production) {
      return sendError(
        reply,
        request,
        new ApiError('not_found', `no route GET ${METRICS_PATH} (metrics are off in production until MARQUE_METRICS_TOKEN is set)`),
      );
    }
    if (access.token !== null && !tokenMatches(request.headers.authorization, access.token)) {
      return sendError(reply, request, new ApiError('unauthorized', 'metrics need "Authorization: Bearer <MARQUE_METRICS_TOKEN>"'));
    }
    return reply.type(metrics.registry.contentType).send(await (access.exposition ?? (() => metrics.registry.metrics()))());
  });
}
