/**
 * Added latency of the limits stage per request: one Limiter.admit (plan features, the plan and
 * tier windows, the monthly and daily quota counters, headers) as the REST lifecycle runs it, for
 * a metered read route and an unmetered utility route, on each KeyValue adapter this machine can
 * run. Requests are sequential, so the figures are per-request latency, not throughput.
 *
 *   node -r ts-node/register/transpile-only bench/limits.ts [iterations]
 *
 * Redis: REDIS_URL, else a throwaway redis-server from PATH, else skipped.
 */
import type { KeyValue } from '../datasources/ports';
import type { OrganizationDoc } from '../domain/records';
import { Limiter } from '../rest/limits';
import type { RouteDef } from '../rest/route';
import { testRoute } from '../test/support/stage-app';
import { latencyLine, onEachKeyValue, percentile, timeRuns } from './samples';

const ITERATIONS = Number(process.argv[2] ?? 20_000);
const WARMUP = 1_000;

const organization: OrganizationDoc = {
  _id: 'org_bench',
  name: 'Bench',
  plan: 'beta',
  billing_anchor_day: 1,
  // High enough that no iteration is refused: the common path is what a request pays.
  limits_override: { per_minute: { read: 1e9, utility: 1e9 }, monthly: { read: 1e12 }, tier_ceilings: { reads: 1e9 } },
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

/** A plain GET route of `pool`, as the limits stage sees it (the handler never runs here). */
const route = (id: string, pool: RouteDef['pool']): RouteDef => testRoute({ id, path: `/bench/${id}`, pool, tag: 'Meta' });

async function measure(label: string, kv: KeyValue): Promise<void> {
  const limiter = new Limiter(kv);
  for (const target of [route('metered-read', 'read'), route('unmetered-utility', 'utility')]) {
    const samples = await timeRuns(
      async () => {
        const decision = await limiter.admit(target, organization);
        if (decision.refusal !== null) throw new Error(`refused: ${decision.refusal.detail}`);
      },
      ITERATIONS,
      WARMUP,
    );
    console.log(latencyLine(`${label} ${target.id}`, samples, 44));
  }
  if (label.startsWith('redis')) {
    const pings = await timeRuns(() => kv.ping(), 5_000);
    console.log(`${`${label} PING, one round trip`.padEnd(44)} median ${percentile(pings, 0.5).toFixed(4)} ms`);
  }
}

async function main(): Promise<void> {
  await onEachKeyValue('limits-bench', measure);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
