/** Deadlines: one portfolio's maintenance deadlines over the next 12 months, as a timeline by month, coloured by status. */
import { useState } from 'preact/hooks';
import { ErrorNote, Loading, useQuery } from '../ui';
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

function inTwelveMonths(): string {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() + 1);
  return date.toISOString().slice(0, 10);
}

function Timeline({ portfolioId }: { portfolioId: string }) {
  const { data, error, loading } = useQuery<{ portfolioDeadlines: { data: Deadline[]; has_more: boolean } }>('PortfolioDeadlines', {
    id: portfolioId,
    due_before: inTwelveMonths(),
  });
  if (loading) return <Loading what="deadlines" />;
  if (error || !data) return <ErrorNote error={error ?? new Error('No data')} />;
  const months = new Map<string, Deadline[]>();
  for (const deadline of data.portfolioDeadlines.data) {
    const month = deadline.due_date.slice(0, 7);
    months.set(month, [...(months.get(month) ?? []), deadline]);
  }
  if (months.size === 0) return <p class="muted">Nothing falls due in the next 12 months.</p>;
  return (
    <ol class="timeline" aria-label="Deadlines by month">
      {[...months].map(([month, deadlines]) => (
        <li>
          <h3>{month}</h3>
          <ul class="plain">
            {deadlines.map((deadline) => (
              <li class={`deadline status-${deadline.status}`}>
                <span class="tag">{deadline.status}</span> <time dateTime={deadline.due_date}>{deadline.due_date}</time> · {deadline.name} ·{' '}
                <MarkLink id={deadline.trademark_id} text={deadline.mark_text} /> <span class="tag">{deadline.office_code}</span>{' '}
                <span class="muted">in {deadline.days_until_due} days</span>
              </li>
            ))}
          </ul>
        </li>
      ))}
      {data.portfolioDeadlines.has_more && <li class="muted">More than 100 deadlines: the first 100 are shown.</li>}
    </ol>
  );
}

export function Deadlines() {
  const { data, error, loading } = useQuery<{ portfolios: { data: Array<{ id: string; name: string }> } }>('Portfolios');
  const [chosen, setChosen] = useState<string | null>(null);
  if (loading) return <Loading what="portfolios" />;
  if (error || !data) return <ErrorNote error={error ?? new Error('No data')} />;
  const portfolios = data.portfolios.data;
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
      {current && <Timeline portfolioId={current} />}
    </section>
  );
}
