/** Usage: calls this billing period against the monthly quota of each metered pool, and the plan's per-minute limits. */
import { Chart, ErrorNote, Loading, Section, formatNumber, useQuery } from '../ui';

interface PoolUsage {
  used: number;
  limit: number | null;
}

interface UsageData {
  usage: {
    billing_period: { start: string; end: string };
    by_endpoint_type: { search: PoolUsage; read: PoolUsage };
    rate_limits: Record<string, number>;
  };
  plan: { name: string; features: string[] };
}

const quotaText = (pool: PoolUsage): string => (pool.limit === null ? 'unlimited' : pool.limit === 0 ? 'not on this plan' : formatNumber(pool.limit));

export function Usage() {
  const { data, error, loading } = useQuery<UsageData>('Usage');
  if (loading) return <Loading what="usage" />;
  if (error || !data) return <ErrorNote error={error ?? new Error('No data')} />;
  const pools = Object.entries(data.usage.by_endpoint_type) as Array<[string, PoolUsage]>;
  // Pools with a quota to measure against (unlimited and not-on-plan pools are listed below only).
  const metered = pools.filter(([, pool]) => pool.limit !== null && pool.limit > 0);
  return (
    <>
      <p class="lead">
        Plan <strong>{data.plan.name}</strong> · billing period {data.usage.billing_period.start.slice(0, 10)} to {data.usage.billing_period.end.slice(0, 10)}
      </p>
      <Section title="Monthly quota by pool" id="quota">
        {/* A share of each quota, not raw counts: quotas differ by orders of magnitude between pools. */}
        <Chart
          title="Share of the monthly quota used this billing period"
          kind="bars"
          yMax={100}
          unit=" %"
          labels={metered.map(([pool]) => pool)}
          series={[
            { label: 'Used (% of quota)', values: metered.map(([, pool]) => Math.round((pool.used / (pool.limit ?? 1)) * 1000) / 10), color: '#1f5fa8' },
          ]}
        />
        <ul class="plain">
          {pools.map(([name, pool]) => (
            <li>
              <strong>{name}</strong>: {formatNumber(pool.used)} used of {quotaText(pool)}
              {pool.limit ? (
                <>
                  {' '}
                  <meter min={0} max={pool.limit} value={pool.used} aria-label={`${name} quota used`} /> {((pool.used / pool.limit) * 100).toFixed(1)} %
                </>
              ) : null}
            </li>
          ))}
        </ul>
      </Section>
      <Section title="Per-minute limits" id="rates">
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Pool</th>
                <th scope="col" class="num">
                  Calls per minute
                </th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(data.usage.rate_limits).map(([pool, limit]) => (
                <tr>
                  <th scope="row">{pool}</th>
                  <td class="num">{formatNumber(limit)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p class="muted">Features: {data.plan.features.join(', ') || 'none'}</p>
      </Section>
    </>
  );
}
