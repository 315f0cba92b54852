/**
 * Alerts inbox: the organization's alerts, newest first, with new ones arriving live through the
 * alertCreated subscription (no reload), and triage (acknowledge, dismiss, reopen) through
 * updateAlert.
 */
import { useEffect, useState } from 'preact/hooks';
import { request, subscribe } from '../graphql';
import { ErrorNote, Loading, LoadMore, useKey, usePagedQuery } from '../ui';
import { MarkLink } from './overview';

export interface AlertRow {
  id: string;
  watch_id: string;
  watch_type: string;
  trademark_id: string;
  trademark: { id: string; mark_text: string; office_code: string } | null;
  status: string;
  score: number | null;
  signals: Array<{ type: string; strength: number; detail: string }> | null;
  must_act_by: string | null;
  opposition_window_status: string;
  trigger: { type: string };
  created_at: string;
}

const FILTERS = ['open', 'acknowledged', 'dismissed', 'all'] as const;
type Filter = (typeof FILTERS)[number];

/** What a triage button does: the status it sets and its label. */
const ACTIONS: Record<string, Array<{ status: string; label: string }>> = {
  open: [
    { status: 'acknowledged', label: 'Acknowledge' },
    { status: 'dismissed', label: 'Dismiss' },
  ],
  // The server's rule: open → acknowledged or dismissed, and back to open (no direct move between the two).
  acknowledged: [{ status: 'open', label: 'Reopen' }],
  dismissed: [{ status: 'open', label: 'Reopen' }],
};

type Live = 'connecting' | 'live' | { error: string };

export function Alerts() {
  const key = useKey();
  const [filter, setFilter] = useState<Filter>('open');
  const list = usePagedQuery<AlertRow>('Alerts', 'alerts', { status: filter === 'all' ? null : filter, limit: 50 });
  const { error, loading, reload } = list;
  const [arrived, setArrived] = useState<AlertRow[]>([]);
  const [changed, setChanged] = useState<Record<string, string>>({});
  const [live, setLive] = useState<Live>('connecting');
  const [announcement, setAnnouncement] = useState('');
  const [triageError, setTriageError] = useState<Error | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    let retry: ReturnType<typeof setTimeout> | undefined;
    const connect = (): void => {
      setLive('connecting');
      subscribe<{ alertCreated: AlertRow }>(
        key,
        'AlertCreated',
        ({ alertCreated }) => {
          setArrived((list) => [alertCreated, ...list.filter((alert) => alert.id !== alertCreated.id)]);
          setAnnouncement(`New alert: ${alertCreated.trademark?.mark_text ?? alertCreated.trademark_id}`);
        },
        controller.signal,
        () => setLive('live'),
      ).then(
        () => {
          // The server closed the stream (a restart): follow again shortly.
          if (!controller.signal.aborted) retry = setTimeout(connect, 3000);
        },
        (failure: unknown) => setLive({ error: failure instanceof Error ? failure.message : String(failure) }),
      );
    };
    connect();
    return () => {
      controller.abort();
      clearTimeout(retry);
    };
  }, [key]);

  const triage = async (alert: AlertRow, status: string): Promise<void> => {
    setTriageError(null);
    try {
      const result = await request<{ updateAlert: { id: string; status: string } }>(key, 'UpdateAlert', { id: alert.id, status });
      setChanged((map) => ({ ...map, [alert.id]: result.updateAlert.status }));
      setAnnouncement(`${alert.trademark?.mark_text ?? alert.trademark_id}: ${result.updateAlert.status}`);
    } catch (failure) {
      setTriageError(failure instanceof Error ? failure : new Error(String(failure)));
    }
  };

  const listed = list.rows ?? [];
  const rows = [...arrived.filter((alert) => !listed.some((known) => known.id === alert.id)), ...listed]
    .map((alert) => ({ ...alert, status: changed[alert.id] ?? alert.status }))
    // A live alert is open; it shows under the open and all filters only.
    .filter((alert) => filter === 'all' || alert.status === filter || changed[alert.id] !== undefined);

  return (
    <>
      <div class="toolbar">
        <label>
          Show{' '}
          <select
            value={filter}
            onChange={(event) => {
              setFilter((event.currentTarget as HTMLSelectElement).value as Filter);
              setArrived([]);
              setChanged({});
            }}
          >
            {FILTERS.map((value) => (
              <option value={value}>{value}</option>
            ))}
          </select>
        </label>
        <button type="button" onClick={reload}>
          Refresh
        </button>
        <span class={typeof live === 'string' ? 'live-badge' : 'live-badge off'} data-testid="live-status">
          {live === 'live' ? '● Live' : live === 'connecting' ? 'Connecting…' : `Live updates off: ${live.error}`}
        </span>
      </div>
      <p class="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      {triageError && <ErrorNote error={triageError} />}
      {loading && <Loading what="alerts" />}
      {error && <ErrorNote error={error} />}
      {!loading && !error && rows.length === 0 && <p class="muted">No {filter === 'all' ? '' : filter} alerts.</p>}
      <ul class="alerts" aria-label="Alerts">
        {rows.map((alert) => (
          <li class={`alert status-${alert.status}`} data-alert-id={alert.id}>
            <div class="alert-head">
              <strong>{alert.trademark ? <MarkLink id={alert.trademark.id} text={alert.trademark.mark_text} /> : alert.trademark_id}</strong>
              {alert.trademark && <span class="tag">{alert.trademark.office_code}</span>}
              <span class="tag">{alert.trigger.type.replace(/_/g, ' ')}</span>
              <span class={`tag status-tag-${alert.status}`} data-testid="alert-status">
                {alert.status}
              </span>
            </div>
            <dl class="facts">
              <div>
                <dt>Score</dt>
                <dd>{alert.score === null ? '—' : alert.score.toFixed(2)}</dd>
              </div>
              <div>
                <dt>Must act by</dt>
                <dd>{alert.must_act_by ?? '—'}</dd>
              </div>
              <div>
                <dt>Opposition window</dt>
                <dd>{alert.opposition_window_status.replace(/_/g, ' ')}</dd>
              </div>
              <div>
                <dt>Created</dt>
                <dd>{new Date(alert.created_at).toLocaleString()}</dd>
              </div>
            </dl>
            {alert.signals && alert.signals.length > 0 && (
              <p class="signals">
                Signals:{' '}
                {alert.signals.map((signal) => (
                  <span class="tag" title={signal.detail}>
                    {signal.type} {signal.strength.toFixed(2)}
                  </span>
                ))}
              </p>
            )}
            <div class="actions">
              {(ACTIONS[alert.status] ?? []).map((action) => (
                <button
                  type="button"
                  onClick={() => void triage(alert, action.status)}
                  aria-label={`${action.label} alert on ${alert.trademark?.mark_text ?? alert.trademark_id}`}
                >
                  {action.label}
                </button>
              ))}
            </div>
          </li>
        ))}
      </ul>
      <LoadMore list={list} what="alerts" />
    </>
  );
}
