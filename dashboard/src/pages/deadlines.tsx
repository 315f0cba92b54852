/**
 * Deadlines: one portfolio's maintenance deadlines over the next 12 months, as a timeline by month,
 * coloured by status; each month shows its first deadlines, and all of them on request.
 */
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

function DeadlineRow({ deadline }: { deadline: Deadline }) {
  return (
    <li class={`deadline status-${deadline.status}`}>
      <span class="tag">{deadline.status}</span> <time dateTime={deadline.due_date}>{deadline.due_date}</time> · {deadline.name} ·{' '}
      <MarkLink id={deadline.trademark_id} text={deadline.mark_text} /> <span class="tag">{deadline.office_code}</span>{' '}
      <span class="muted">in {deadline.days_until_due} days</span>
    </li>
  );
}

function DeadlineList({ deadlines }: { deadlines: Deadline[] }) {
  return (
    <ul class="plain">
      {deadlines.map((deadline) => (
        <DeadlineRow key={`${deadline.trademark_id}:${deadline.type}:${deadline.due_date}`} deadline={deadline} />
      ))}
    </ul>
  );
}

/** Which group of the timeline a list of deadlines is, as the PortfolioDeadlineGroup operation selects it. */
type Selection = { month: string } | { overdue: true };

interface GroupProps {
  portfolioId: string;
  title: string;
  /** The group's deadlines in words ("deadlines due in 2026-03"), for its controls. */
  noun: string;
  selection: Selection;
  group: DeadlineGroup;
}

/**
 * Every deadline of a group, page by page, in the timeline's order. Its pages start from the
 * group's first deadline and replace the ones the timeline gave (kept on screen until the first
 * page arrives), so none is shown twice.
 */
function WholeGroup({ portfolioId, noun, selection, group }: Omit<GroupProps, 'title'>) {
  const list = usePagedQuery<Deadline>('PortfolioDeadlineGroup', 'portfolioDeadlines', { id: portfolioId, ...selection });
  const rows = list.rows ?? group.deadlines;
  const left = group.count - rows.length;
  return (
    <>
      <DeadlineList deadlines={rows} />
      {list.loading && <Loading what={`all ${group.count} ${noun}`} />}
      {list.error && (
        <div class="load-more">
          <ErrorNote error={list.error} />
          <button type="button" onClick={list.reload}>
            Try again to show all {group.count} {noun}
          </button>
        </div>
      )}
      <LoadMore list={list} what={left > 0 ? `${noun} (${left} left)` : noun} />
    </>
  );
}

/** One month (or the overdue group): its counts per status, then its first deadlines, and all of them on request. */
function Group({ portfolioId, title, noun, selection, group }: GroupProps) {
  const [whole, setWhole] = useState(false);
  return (
    <li>
      <h3>
        {title} <span class="muted">({group.count})</span>
      </h3>
      <p class="muted">{group.by_status.map((entry) => `${entry.status} ${entry.count}`).join(' · ')}</p>
      {whole ? (
        <WholeGroup portfolioId={portfolioId} noun={noun} selection={selection} group={group} />
      ) : (
        <>
          <DeadlineList deadlines={group.deadlines} />
          {group.count > group.deadlines.length && (
            <div class="load-more">
              <button type="button" onClick={() => setWhole(true)}>
                Show all {group.count} {noun}
              </button>
            </div>
          )}
        </>
      )}
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
      {overdue.count > 0 && (
        <Group
          key="overdue"
          portfolioId={portfolioId}
          title="Overdue, still actionable"
          noun="overdue deadlines"
          selection={{ overdue: true }}
          group={overdue}
        />
      )}
      {busy.map((month) => (
        <Group
          key={month.month}
          portfolioId={portfolioId}
          title={month.month}
          noun={`deadlines due in ${month.month}`}
          selection={{ month: month.month }}
          group={month}
        />
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
      {/* Keyed: another portfolio starts with every group folded again. */}
      {current && <Timeline key={current} portfolioId={current} />}
    </section>
  );
}
