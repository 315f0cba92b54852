/** One mark: its record with its logo, and its prosecution history as a timeline. */
import { ErrorNote, Loading, Section, useQuery } from '../ui';

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
  trademarkHistory: { data: Array<{ id: string; event_type: string; event_type_description: string | null; event_date: string }> };
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
        {data.trademarkHistory.data.length === 0 ? (
          <p class="muted">No events recorded.</p>
        ) : (
          <ol class="timeline">
            {data.trademarkHistory.data.map((event) => (
              <li>
                <time dateTime={event.event_date}>{event.event_date}</time> · {event.event_type_description ?? event.event_type.replace(/_/g, ' ')}
              </li>
            ))}
          </ol>
        )}
      </Section>
    </>
  );
}
