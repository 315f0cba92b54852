/** Shared pieces of the pages: the query hook, messages, a chart on uPlot, formatting. */
import type { ComponentChildren } from 'preact';
import { createContext } from 'preact';
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { request, type Variables } from './graphql';
import type { OperationName } from './queries';

/** The signed-in key, handed to every page (never a global, never in the bundle). */
export const KeyContext = createContext<string>('');

export function useKey(): string {
  return useContext(KeyContext);
}

export interface QueryState<T> {
  data: T | null;
  error: Error | null;
  loading: boolean;
  reload: () => void;
}

/** Runs one named operation when the page opens and whenever `variables` change (compared as JSON). */
export function useQuery<T>(name: OperationName, variables: Variables | null = {}): QueryState<T> {
  const key = useKey();
  const [state, setState] = useState<{ data: T | null; error: Error | null; loading: boolean }>({ data: null, error: null, loading: variables !== null });
  const [round, setRound] = useState(0);
  const serialized = variables === null ? null : JSON.stringify(variables);
  useEffect(() => {
    if (serialized === null) return undefined;
    let live = true;
    setState((previous) => ({ ...previous, loading: true, error: null }));
    request<T>(key, name, JSON.parse(serialized) as Variables).then(
      (data) => live && setState({ data, error: null, loading: false }),
      (error: unknown) => live && setState({ data: null, error: error instanceof Error ? error : new Error(String(error)), loading: false }),
    );
    return () => {
      live = false;
    };
  }, [key, name, serialized, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { ...state, reload };
}

/** One page of a list field, as the schema's *Page types answer it. */
export interface Page<Row> {
  data: Row[];
  has_more: boolean;
  pagination: { cursor: string | null };
}

export interface PagedState<Row> {
  /** The first page and every page loaded since; null until the first arrives. */
  rows: Row[] | null;
  error: Error | null;
  loading: boolean;
  reload: () => void;
  hasMore: boolean;
  loadingMore: boolean;
  moreError: Error | null;
  loadMore: () => void;
}

/** The pages loaded after a first page (`after`: its answer), and the state of the load under way. */
interface More<Row> {
  after: unknown;
  rows: Row[];
  cursor: string | null;
  hasMore: boolean;
  loading: boolean;
  error: Error | null;
}

/**
 * A paged list: the first page as `useQuery` loads it (again when `variables` change or on reload),
 * and each next page on `loadMore`, appended. The operation takes `$cursor` and answers `field`
 * with `data`, `has_more` and `pagination.cursor`. The pages loaded after the first belong to the
 * first page they follow: a new first page (a reload, other variables) drops them, and drops the
 * answer of a load still under way for the old one.
 */
export function usePagedQuery<Row>(name: OperationName, field: string, variables: Variables = {}): PagedState<Row> {
  const key = useKey();
  const first = useQuery<Record<string, Page<Row>>>(name, variables);
  const [more, setMore] = useState<More<Row> | null>(null);
  const page = first.data?.[field];
  const current = more !== null && more.after === first.data ? more : null;
  const cursor = current ? current.cursor : (page?.pagination.cursor ?? null);
  const hasMore = current ? current.hasMore : (page?.has_more ?? false);
  const loadMore = (): void => {
    if (cursor === null || current?.loading || first.loading) return;
    const after = first.data;
    // Applied only while the pages still follow this first page.
    const ours = (update: (mine: More<Row>) => More<Row>) => (state: More<Row> | null) => (state !== null && state.after === after ? update(state) : state);
    setMore({ after, rows: current?.rows ?? [], cursor, hasMore, loading: true, error: null });
    request<Record<string, Page<Row>>>(key, name, { ...variables, cursor }).then(
      (data) => {
        const next = data[field] as Page<Row>;
        setMore(ours((mine) => ({ ...mine, rows: [...mine.rows, ...next.data], cursor: next.pagination.cursor, hasMore: next.has_more, loading: false })));
      },
      (error: unknown) => setMore(ours((mine) => ({ ...mine, loading: false, error: error instanceof Error ? error : new Error(String(error)) }))),
    );
  };
  return {
    rows: page ? [...page.data, ...(current?.rows ?? [])] : null,
    error: first.error,
    loading: first.loading,
    reload: first.reload,
    hasMore,
    loadingMore: current?.loading ?? false,
    moreError: current?.error ?? null,
    loadMore,
  };
}

/** The control under a paged list: shown while more rows remain, with the error of a failed load. */
export function LoadMore<Row>({ list, what }: { list: PagedState<Row>; what: string }) {
  if (!list.hasMore && list.moreError === null) return null;
  return (
    <div class="load-more">
      {list.moreError && <ErrorNote error={list.moreError} />}
      {list.hasMore && (
        <button type="button" onClick={list.loadMore} disabled={list.loading || list.loadingMore}>
          {list.loadingMore ? `Loading more ${what}…` : `Show more ${what}`}
        </button>
      )}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="muted" role="status">
      Loading {what}…
    </p>
  );
}

export function ErrorNote({ error }: { error: Error }) {
  return (
    <p class="error" role="alert">
      {error.message}
    </p>
  );
}

export function Section({ title, children, id }: { title: string; children: ComponentChildren; id?: string }) {
  return (
    <section class="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

export const formatNumber = (n: number): string => new Intl.NumberFormat('en').format(n);

export interface ChartSeries {
  label: string;
  values: number[];
  /** A colour with at least 3:1 contrast on white (WCAG 1.4.11 for graphics). */
  color: string;
}

export interface ChartProps {
  /** Accessible name of the chart; the figures are also in the table under it. */
  title: string;
  labels: string[];
  series: ChartSeries[];
  kind: 'bars' | 'line';
  height?: number;
  /** A fixed top of the y scale (100 for percentages); otherwise 10 % above the largest value. */
  yMax?: number;
  /** Suffix of the y axis labels (" %"). */
  unit?: string;
}

/**
 * A uPlot chart over categories (months, pools): x is the category's index, labelled by `labels`.
 * uPlot draws on a canvas, which a screen reader cannot read, so the same numbers follow in a
 * table (inside a details element, one keystroke away).
 */
export function Chart({ title, labels, series, kind, height = 240, yMax, unit = '' }: ChartProps) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element) return undefined;
    const xs = labels.map((_, index) => index);
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 280),
      height,
      legend: { show: true },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: false, range: [-0.6, labels.length - 0.4] }, y: { range: (_u, _min, max) => [0, yMax ?? Math.max(1, max * 1.1)] } },
      axes: [
        { values: (_u, splits) => splits.map((value) => (Number.isInteger(value) ? (labels[value] ?? '') : '')), stroke: '#333', grid: { show: false } },
        { stroke: '#333', grid: { stroke: '#e2e2e2' }, size: 80, values: (_u, splits) => splits.map((value) => `${formatNumber(value)}${unit}`) },
      ],
      series: [
        { label: 'At', value: (_u, value) => (value === null ? '' : (labels[value] ?? '')) },
        ...series.map((s, index) => ({
          label: s.label,
          stroke: s.color,
          fill: kind === 'bars' ? s.color : undefined,
          width: kind === 'bars' ? 0 : 2,
          // Bars of later series are narrower and drawn over the earlier ones: with a quota
          // first and the usage second, the usage reads as a fill of its quota (a bullet chart).
          paths: kind === 'bars' ? uPlot.paths.bars?.({ size: [0.8 - index * (0.45 / Math.max(series.length - 1, 1)), 72], gap: 1 }) : undefined,
          points: { show: kind === 'line' },
        })),
      ],
    };
    const plot = new uPlot(options, [xs, ...series.map((s) => s.values)], element);
    const observer = new ResizeObserver(() => plot.setSize({ width: Math.max(element.clientWidth, 280), height }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [JSON.stringify({ labels, series, kind, height, yMax, unit })]);
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <div ref={holder} role="img" aria-label={`${title} (chart; the figures are in the table below)`} />
      <details>
        <summary>Show the figures</summary>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{kind === 'line' ? 'Period' : 'Category'}</th>
                {series.map((s) => (
                  <th scope="col">{s.label}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {labels.map((label, index) => (
                <tr>
                  <th scope="row">{label}</th>
                  {series.map((s) => (
                    <td class="num">
                      {formatNumber(s.values[index] ?? 0)}
                      {unit}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
