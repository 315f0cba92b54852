/**
 * Watches: the list (pause/resume, diagnostics), and a form creating a filter, similarity or
 * trademark watch, with a preview of what the query matches in the catalog today.
 */
import { useState } from 'preact/hooks';
import { request } from '../graphql';
import { ErrorNote, Loading, LoadMore, formatNumber, useKey, usePagedQuery } from '../ui';
import { MarkLink } from './overview';

interface WatchRow {
  id: string;
  name: string | null;
  watch_type: string;
  status: string;
  query: Record<string, unknown>;
  evaluating_since: string;
  created_at: string;
}

interface Preview {
  estimated_match_count: number;
  estimate_basis: string | null;
  data: Array<{ id: string; mark_text: string; office_code: string }> | null;
  scores: Array<{ trademark_id: string; score: number }> | null;
}

interface Diagnostics {
  status: string;
  estimated_match_count: number;
  evaluation: { evaluating_since: string; last_change_processed_at: string | null; alerts_created: number; last_error: string | null };
}

type WatchType = 'filter' | 'similarity' | 'trademark';

interface Form {
  watchType: WatchType;
  name: string;
  offices: string;
  classes: string;
  text: string;
  threshold: string;
  trademarkIds: string;
}

const EMPTY: Form = { watchType: 'filter', name: '', offices: '', classes: '', text: '', threshold: '0.7', trademarkIds: '' };

const list = (text: string): string[] =>
  text
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter(Boolean);

/** The watch query the form describes (the same JSON the REST API takes). */
function queryOf(form: Form): Record<string, unknown> {
  const filters: Record<string, unknown> = {};
  const offices = list(form.offices).map((office) => office.toLowerCase());
  const classes = list(form.classes).map(Number);
  if (offices.length > 0) filters.offices = offices;
  if (classes.length > 0) filters.niceClasses = classes;
  if (form.watchType === 'trademark') return { trademark_ids: list(form.trademarkIds) };
  if (form.watchType === 'similarity') return { q: form.text.trim(), score_threshold: Number(form.threshold), filters };
  return { filters };
}

function describe(watch: WatchRow): string {
  return JSON.stringify(watch.query);
}

export function Watches() {
  const key = useKey();
  const list = usePagedQuery<WatchRow>('Watches', 'watches');
  // Statuses changed here, so pausing a watch of a later page does not send the list back to its first page.
  const [statuses, setStatuses] = useState<Record<string, string>>({});
  const watches = list.rows?.map((watch) => ({ ...watch, status: statuses[watch.id] ?? watch.status })) ?? null;
  const [form, setForm] = useState<Form>(EMPTY);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [formError, setFormError] = useState<Error | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');
  const [diagnostics, setDiagnostics] = useState<Record<string, Diagnostics | Error>>({});

  const field =
    (name: keyof Form) =>
    (event: Event): void => {
      setForm({ ...form, [name]: (event.currentTarget as HTMLInputElement).value });
      setPreview(null);
    };

  const act = async (work: () => Promise<void>): Promise<void> => {
    setBusy(true);
    setFormError(null);
    try {
      await work();
    } catch (failure) {
      setFormError(failure instanceof Error ? failure : new Error(String(failure)));
    } finally {
      setBusy(false);
    }
  };

  const runPreview = () =>
    act(async () => {
      const result = await request<{ previewWatch: Preview }>(key, 'PreviewWatch', { watch_type: form.watchType, query: queryOf(form) });
      setPreview(result.previewWatch);
    });

  const create = (event: Event) => {
    event.preventDefault();
    return act(async () => {
      const result = await request<{ createWatch: WatchRow }>(key, 'CreateWatch', {
        watch_type: form.watchType,
        name: form.name.trim() || null,
        query: queryOf(form),
      });
      setMessage(`Watch ${result.createWatch.name ?? result.createWatch.id} created.`);
      setForm(EMPTY);
      setPreview(null);
      setStatuses({});
      list.reload();
    });
  };

  const toggle = (watch: WatchRow) =>
    act(async () => {
      const status = watch.status === 'active' ? 'paused' : 'active';
      await request(key, watch.status === 'active' ? 'PauseWatch' : 'ResumeWatch', { id: watch.id });
      setStatuses((map) => ({ ...map, [watch.id]: status }));
      setMessage(`Watch ${watch.name ?? watch.id} ${status === 'paused' ? 'paused' : 'resumed'}.`);
    });

  const diagnose = async (watch: WatchRow): Promise<void> => {
    try {
      const result = await request<{ watchDiagnostics: Diagnostics }>(key, 'WatchDiagnostics', { id: watch.id });
      setDiagnostics((map) => ({ ...map, [watch.id]: result.watchDiagnostics }));
    } catch (failure) {
      setDiagnostics((map) => ({ ...map, [watch.id]: failure instanceof Error ? failure : new Error(String(failure)) }));
    }
  };

  const scoreOf = (id: string) => preview?.scores?.find((score) => score.trademark_id === id)?.score;

  return (
    <>
      <section class="card" aria-labelledby="new-watch">
        <h2 id="new-watch">New watch</h2>
        <form onSubmit={create} class="form-grid">
          <label>
            Type
            <select value={form.watchType} onChange={field('watchType')} name="watch_type">
              <option value="filter">filter: new or changed marks matching filters</option>
              <option value="similarity">similarity: look-alikes of a mark</option>
              <option value="trademark">trademark: status changes of given marks</option>
            </select>
          </label>
          <label>
            Name
            <input name="name" value={form.name} onInput={field('name')} autocomplete="off" />
          </label>
          {form.watchType === 'similarity' && (
            <>
              <label>
                Mark text
                <input name="q" value={form.text} onInput={field('text')} required />
              </label>
              <label>
                Score threshold (0 to 1)
                <input name="score_threshold" type="number" min="0" max="1" step="0.05" value={form.threshold} onInput={field('threshold')} />
              </label>
            </>
          )}
          {form.watchType === 'trademark' ? (
            <label>
              Trademark IDs (tm_…, separated by commas)
              <input name="trademark_ids" value={form.trademarkIds} onInput={field('trademarkIds')} required />
            </label>
          ) : (
            <>
              <label>
                Offices (codes, separated by commas)
                <input name="offices" value={form.offices} onInput={field('offices')} placeholder="US, EM" />
              </label>
              <label>
                Nice classes (separated by commas)
                <input name="nice_classes" value={form.classes} onInput={field('classes')} placeholder="9, 42" inputMode="numeric" />
              </label>
            </>
          )}
          <div class="actions">
            <button type="button" onClick={() => void runPreview()} disabled={busy}>
              Preview matches
            </button>
            <button type="submit" class="primary" disabled={busy}>
              Create watch
            </button>
          </div>
        </form>
        {formError && <ErrorNote error={formError} />}
        <p role="status" class="muted">
          {message}
        </p>
        {preview && (
          <div class="preview" data-testid="watch-preview">
            <p>
              Would match {preview.estimate_basis ? 'about ' : ''}
              <strong>{formatNumber(preview.estimated_match_count)}</strong> marks today{preview.estimate_basis ? ` (${preview.estimate_basis})` : ''}.
            </p>
            <ul class="plain">
              {(preview.data ?? []).map((mark) => {
                const score = scoreOf(mark.id);
                return (
                  <li>
                    <MarkLink id={mark.id} text={mark.mark_text} /> <span class="tag">{mark.office_code}</span>
                    {score !== undefined && <span class="muted"> score {score.toFixed(2)}</span>}
                  </li>
                );
              })}
            </ul>
          </div>
        )}
      </section>
      <section class="card" aria-labelledby="watch-list">
        <h2 id="watch-list">Watches</h2>
        {list.loading && <Loading what="watches" />}
        {list.error && <ErrorNote error={list.error} />}
        {watches && watches.length === 0 && <p class="muted">No watches yet.</p>}
        {watches && watches.length > 0 && (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Type</th>
                  <th scope="col">Query</th>
                  <th scope="col">Status</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {watches.map((watch) => {
                  const found = diagnostics[watch.id];
                  return (
                    <>
                      <tr data-watch-id={watch.id}>
                        <th scope="row">{watch.name ?? watch.id}</th>
                        <td>{watch.watch_type}</td>
                        <td>
                          <code class="query">{describe(watch)}</code>
                        </td>
                        <td data-testid="watch-status">{watch.status}</td>
                        <td class="actions">
                          <button type="button" onClick={() => void toggle(watch)} disabled={busy}>
                            {watch.status === 'active' ? 'Pause' : 'Resume'}
                            <span class="visually-hidden"> {watch.name ?? watch.id}</span>
                          </button>
                          <button type="button" onClick={() => void diagnose(watch)}>
                            Diagnostics<span class="visually-hidden"> of {watch.name ?? watch.id}</span>
                          </button>
                        </td>
                      </tr>
                      {found && (
                        <tr>
                          <td colSpan={5}>
                            {found instanceof Error ? (
                              <ErrorNote error={found} />
                            ) : (
                              <p>
                                {formatNumber(found.estimated_match_count)} marks match now · {found.evaluation.alerts_created} alerts created · last change
                                processed {found.evaluation.last_change_processed_at ?? 'never'}
                                {found.evaluation.last_error ? ` · last error: ${found.evaluation.last_error}` : ''}
                              </p>
                            )}
                          </td>
                        </tr>
                      )}
                    </>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        <LoadMore list={list} what="watches" />
      </section>
    </>
  );
}
