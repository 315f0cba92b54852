/** One mark: its record with its logo, and its prosecution history as a timeline. */
import { ErrorNote, Loading, LoadMore, Section, usePagedQuery, useQuery } from '../ui';

interface MarkData {
  trademark: {
    id: string;
    mark_text: string;
    office_code: string;
    filing_date: string;
    status: { primary: string; stage: string };
    owner_name: string | null;
    application_number: string;
    registration_number: string | null;
    registration_date: string | null;
    expiry_date: string | null;
    classifications: Array<{ nice_class: number }>;
    media: Array<{ id: string; kind: string; mime_type: string; url: string }>;
  };
}

interface MarkEvent {
  id: string;
  event_type: string;
  event_type_description: string | null;
  event_date: string;
}

/** The mark's prosecution events, oldest first, a page at a time. */
function History({ id }: { id: string }) {
  const history = usePagedQuery<MarkEvent>('MarkHistory', 'trademarkHistory', { id });
  if (history.loading) return <Loading what="the history" />;
  if (history.error || !history.rows) return <ErrorNote error={history.error ?? new Error('No data')} />;
  if (history.rows.length === 0) return <p class="muted">No events recorded.</p>;
  return (
    <>
      <ol class="timeline">
        {history.rows.map((event) => (
          <li>
            <time dateTime={event.event_date}>{event.event_date}</time> · {event.event_type_description ?? event.event_type.replace(/_/g, ' ')}
          </li>
        ))}
      </ol>
      <LoadMore list={history} what="events" />
    </>
  );
}

export function Mark({ id }: { id: string }) {
  const { data, error, loading } = useQuery<MarkData>('Mark', { id });
  if (loading) return <Loading what="the mark" />;
  if (error || !data) return <ErrorNote error={error ?? new Error('No data')} />;
  const mark = data.trademark;
  // Register images are public: the page loads them straight from /v1/media (same origin, no key).
  const logo = mark.media.find((media) => media.mime_type.startsWith('image/'));
  const facts: Array<[string, string | null]> = [
    ['Office', mark.office_code],
    ['Status', `${mark.status.primary} (${mark.status.stage})`],
    ['Owner', mark.owner_name],
    ['Application number', mark.application_number],
    ['Registration number', mark.registration_number],
    ['Filed', mark.filing_date],
    ['Registered', mark.registration_date],
    ['Expires', mark.expiry_date],
    ['Nice classes', mark.classifications.map((c) => c.nice_class).join(', ')],
  ];
  return (
    <>
      <Section title={mark.mark_text} id="mark">
        {logo && <img class="logo" src={`${logo.url}/thumbnail`} alt={`Logo of ${mark.mark_text}`} width={256} />}
        <dl class="facts">
          {facts.map(([label, value]) => (
            <div>
              <dt>{label}</dt>
              <dd>{value || '—'}</dd>
            </div>
          ))}
        </dl>
        <p class="muted">
          <code>{mark.id}</code>
        </p>
      </Section>
      <Section title="Prosecution history" id="history">
        <History id={mark.id} />
      </Section>
    </>
  );
}
