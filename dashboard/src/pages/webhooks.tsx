/** Webhook endpoints, with each one's recent deliveries and failures on demand. */
import { useState } from 'preact/hooks';
import { ErrorNote, Loading, LoadMore, usePagedQuery } from '../ui';

interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  status: string;
  enabled_events: string[];
  consecutive_failures: number;
  last_success_at: string | null;
  last_failure_at: string | null;
}

interface Delivery {
  id: string;
  event_type: string;
  attempt: number;
  status: string;
  http_status: number | null;
  error: string | null;
  created_at: string;
}

function Deliveries({ id }: { id: string }) {
  const list = usePagedQuery<Delivery>('WebhookDeliveries', 'webhookDeliveries', { id });
  if (list.loading) return <Loading what="deliveries" />;
  if (list.error || !list.rows) return <ErrorNote error={list.error ?? new Error('No data')} />;
  if (list.rows.length === 0) return <p class="muted">No deliveries in the last 30 days.</p>;
  return (
    <>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Event</th>
              <th scope="col">Attempt</th>
              <th scope="col">Status</th>
              <th scope="col">HTTP / error</th>
            </tr>
          </thead>
          <tbody>
            {list.rows.map((delivery) => (
              <tr class={delivery.status === 'failed' || delivery.status === 'exhausted' ? 'failed' : ''}>
                <td>{new Date(delivery.created_at).toLocaleString()}</td>
                <td>{delivery.event_type}</td>
                <td class="num">{delivery.attempt}</td>
                <td>{delivery.status}</td>
                <td>{delivery.http_status ?? delivery.error ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <LoadMore list={list} what="deliveries" />
    </>
  );
}

export function Webhooks() {
  const list = usePagedQuery<Endpoint>('Webhooks', 'webhookEndpoints');
  const [open, setOpen] = useState<string | null>(null);
  if (list.loading) return <Loading what="webhook endpoints" />;
  if (list.error || !list.rows) return <ErrorNote error={list.error ?? new Error('No data')} />;
  const endpoints = list.rows;
  if (endpoints.length === 0) return <p class="muted">No webhook endpoints yet: register one with POST /v1/webhooks.</p>;
  return (
    <>
      <ul class="plain">
        {endpoints.map((endpoint) => (
          <li class="card">
            <h2>{endpoint.url}</h2>
            <p>
              <span class={`tag status-tag-${endpoint.status}`}>{endpoint.status}</span> {endpoint.description ?? ''} · events:{' '}
              {endpoint.enabled_events.join(', ')} · {endpoint.consecutive_failures} consecutive failures · last success {endpoint.last_success_at ?? 'never'} ·
              last failure {endpoint.last_failure_at ?? 'never'}
            </p>
            <button type="button" aria-expanded={open === endpoint.id} onClick={() => setOpen(open === endpoint.id ? null : endpoint.id)}>
              {open === endpoint.id ? 'Hide deliveries' : 'Show deliveries'}
            </button>
            {open === endpoint.id && <Deliveries id={endpoint.id} />}
          </li>
        ))}
      </ul>
      <LoadMore list={list} what="endpoints" />
    </>
  );
}
