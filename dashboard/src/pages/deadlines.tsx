/** Deadlines: one portfolio's maintenance deadlines over the next 12 months, as a timeline by month, coloured by status. */
import { useState } from 'preact/hooks';
import { ErrorNote, Loading, LoadMore, usePagedQuery, useQuery } from '../ui';
import { MarkLink } from './overview';

interface Deadline {
  trademark_id: string;
  mark_text: string;
  office_code: string;
  type: string;
  name: string;
  due_date: string;
  status: string;
  urgency: string;
  days_until_due: number;
}

interface DeadlineGroup {
  count: number;
  by_status: Array<{ status: string; count: number }>;
  deadlines: Deadline[];
}

/** One month (or the overdue group): its counts per status, then its first deadlines. */
function Group({ title, group }: { title: string; group: DeadlineGroup }) {
  return (
    <li>
      <h3>
        {title} <span class="muted">({group.count})</span>
      </h3>
      <p class="muted">{group.by_status.map((entry) => `${entry.status} ${entry.count}`).join(' · ')}</p>
      <ul class="plain">
        {group.deadlines.map((deadline) => (
          <li class={`deadline status-${deadline.status}`}>
            <span class="tag">{deadline.status}</span> <time dateTime={deadline.due_date}>{deadline.due_date}</time> · {deadline.name} ·{' '}
            <MarkLink id={deadline.trademark_id} text={deadline.mark_text} /> <span class="tag">{deadline.office_code}</span>{' '}
            <span class="muted">in {deadline.days_until_due} days</span>
          </li>
        ))}
        {group.count > group.deadlines.length && <li class="muted">and {group.count - group.deadlines.length} more</li>}
      </ul>
    </li>
  );
}

function Timeline({ portfolioId }: { portfolioId: string }) {
  const { data, error, loading } = useQuery<{ portfolioDeadlineTimeline: { overdue: DeadlineGroup; months: Array<DeadlineGroup & { month: string }> } }>(
    'PortfolioDeadlineTimeline',
    { id: portfolioId },
  );
  if (loading) return <Loading what="deadlines" />;
  if (error || !data) return <ErrorNote error={error ?? new Error('No data')} />;
  const { overdue, months } = data.portfolioDeadlineTimeline;
  const busy = months.filter((month) => month.count > 0);
  if (overdue.count === 0 && busy.length === 0) return <p class="muted">Nothing falls due in the next 12 months.</p>;
  return (
    <ol class="timeline" aria-label="Deadlines by month">
      {overdue.count > 0 && <Group title="Overdue, still actionable" group={overdue} />}
      {busy.map((month) => (
        <Group title={month.month} group={month} />
      ))}
    </ol>
  );
}

export function Deadlines() {
  const list = usePagedQuery<{ id: string; name: string }>('Portfolios', 'portfolios');
  const [chosen, setChosen] = useState<string | null>(null);
  if (list.loading) return <Loading what="portfolios" />;
  if (list.error || !list.rows) return <ErrorNote error={list.error ?? new Error('No data')} />;
  const portfolios = list.rows;
  if (portfolios.length === 0) return <p class="muted">No portfolios yet: create one with POST /v1/portfolios to see its deadlines here.</p>;
  const current = chosen ?? portfolios[0]?.id ?? null;
  return (
    <section class="card" aria-labelledby="deadlines">
      <h2 id="deadlines">Deadlines in the next 12 months</h2>
      <label>
        Portfolio{' '}
        <select value={current ?? ''} onChange={(event) => setChosen((event.currentTarget as HTMLSelectElement).value)}>
          {portfolios.map((portfolio) => (
            <option value={portfolio.id}>{portfolio.name}</option>
          ))}
        </select>
      </label>
      <LoadMore list={list} what="portfolios" />
      {current && <Timeline portfolioId={current} />}
    </section>
  );
}
