/**
 * Health endpoints: no key, outside every limit, never metered.
 */
import { PUBLIC_GET, type RouteDef } from '../route';
import { constant, int, object, type JsonSchema } from '../schemas/json-schema';

export interface Probe {
  name: 'database' | 'cache' | 'search_index';
  ping(): Promise<void>;
}

export interface HealthDeps {
  probes: readonly Probe[];
  startedAt: number;
  isShuttingDown(): boolean;
  now(): number;
}

const liveSchema: JsonSchema = object({ status: constant('ok') });

const dependencySchema: JsonSchema = {
  type: 'object',
  properties: { status: { type: 'string', enum: ['ok', 'error'] }, latency_ms: int('Probe latency; omitted on error.') },
  required: ['status'],
  additionalProperties: false,
};

const readySchema: JsonSchema = object({
  status: { type: 'string', enum: ['ok', 'degraded', 'unhealthy', 'shutting_down'] },
  service: constant('core-api'),
  uptime_ms: int(),
  dependencies: object({ database: dependencySchema, cache: dependencySchema, search_index: dependencySchema }),
});

type DependencyStatus = { status: 'ok'; latency_ms: number } | { status: 'error' };

async function probe(p: Probe, now: () => number): Promise<DependencyStatus> {
  const started = now();
  try {
    await Promise.race([p.ping(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000).unref())]);
    return { status: 'ok', latency_ms: Math.round(now() - started) };
  } catch {
    return { status: 'error' };
  }
}

const base = { ...PUBLIC_GET, tag: 'Health', envelope: 'single' } as const;

export function healthRoutes(deps: HealthDeps): RouteDef[] {
  const live = async () => ({ status: 200, body: { status: 'ok' } });
  return [
    {
      ...base,
      id: 'health',
      path: '/v1/health',
      summary: 'Liveness',
      description: '200 {status: ok} while the process is alive. No key needed; not rate-limited; not metered.',
      response: liveSchema,
      handle: live,
    },
    {
      ...base,
      id: 'healthLive',
      path: '/health/live',
      summary: 'Liveness (root path)',
      description: 'Same as /v1/health.',
      response: liveSchema,
      handle: live,
    },
    {
      ...base,
      id: 'healthReady',
      path: '/health/ready',
      summary: 'Readiness with dependency probes',
      description:
        'ok: database, cache and search index reachable. degraded (HTTP 200): the cache or the search index is down; some features may fail. ' +
        'unhealthy (HTTP 503): the database is unreachable. shutting_down (HTTP 503): draining for a stop. Poll about every 60 seconds.',
      response: readySchema,
      alsoAnswers: { 503: 'unhealthy (the database is unreachable) or shutting_down (draining for a stop): the same readiness body.' },
      handle: async () => {
        const results = await Promise.all(deps.probes.map(async (p) => [p.name, await probe(p, deps.now)] as const));
        const dependencies = Object.fromEntries(results) as Record<Probe['name'], DependencyStatus>;
        const status = deps.isShuttingDown()
          ? 'shutting_down'
          : dependencies.database.status === 'error'
            ? 'unhealthy'
            : dependencies.cache.status === 'error' || dependencies.search_index.status === 'error'
              ? 'degraded'
              : 'ok';
        return {
          status: status === 'unhealthy' || status === 'shutting_down' ? 503 : 200,
          body: { status, service: 'core-api', uptime_ms: Math.round(deps.now() - deps.startedAt), dependencies },
        };
      },
    },
  ];
}
