/** Overview: marks by office and status, filings per month, the marks changed last. */
import { Chart, ErrorNote, Loading, Section, formatNumber, useQuery } from '../ui';

interface MarkSummary {
  id: string;
  mark_text: string;
  office_code: string;
  filing_date: string;
  status: { primary: string; stage: string };
}

interface OverviewData {
  trademarkStats: {
    total_marks: number;
    by_office_status: Array<{ office_code: string; status_primary: string; count: number }>;
    filings_by_month: Array<{ month: string; count: number }>;
    recent_changes: MarkSummary[];
    stats_computed_at: string;
  };
}

export function MarkLink({ id, text }: { id: string; text: string }) {
  return <a href={`#/marks/${encodeURIComponent(id)}`}>{text}</a>;
}

export function Overview() {
  const { data, error, loading } = useQuery<OverviewData>('Overview', { months: 24 });
  if (loading) return <Loading what="the overview" />;
  if (error || !data) return <ErrorNote error={error ?? new Error('No data')} />;
  const stats = data.trademarkStats;
  const statuses = [...new Set(stats.by_office_status.map((row) => row.status_primary))].sort();
  const offices = [...new Set(stats.by_office_status.map((row) => row.office_code))].sort();
  const cell = (office: string, status: string) =>
    stats.by_office_status.find((row) => row.office_code === office && row.status_primary === status)?.count ?? 0;
  return (
    <>
      <p class="lead">
        {formatNumber(stats.total_marks)} marks in the catalog · counted {new Date(stats.stats_computed_at).toLocaleString()}
      </p>
      <Section title="Filings per month" id="filings">
        <Chart
          title="Marks filed per month, last 24 months"
          kind="bars"
          labels={stats.filings_by_month.map((row) => row.month)}
          series={[{ label: 'Filed', values: stats.filings_by_month.map((row) => row.count), color: '#1f5fa8' }]}
        />
      </Section>
      <Section title="Marks by office and status" id="by-office">
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Number of marks per office (rows) and primary status (columns)</caption>
            <thead>
              <tr>
                <th scope="col">Office</th>
                {statuses.map((status) => (
                  <th scope="col" class="num">
                    {status}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {offices.map((office) => (
                <tr>
                  <th scope="row">{office}</th>
                  {statuses.map((status) => (
                    <td class="num">{formatNumber(cell(office, status))}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>
      <Section title="Recently changed marks" id="recent">
        <ul class="plain">
          {stats.recent_changes.map((mark) => (
            <li>
              <MarkLink id={mark.id} text={mark.mark_text} /> <span class="tag">{mark.office_code}</span>{' '}
              <span class="muted">
                {mark.status.stage} · filed {mark.filing_date}
              </span>
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}
