/**
 * Progress of long CLI work (`marque seed`, `marque ingest …`) on stderr: on a terminal, bars
 * with a count, a rate and an ETA (cli-progress); otherwise (logs, CI, pipes) one plain line per
 * bar at most every few seconds, and a last one when the bar completes or the work stops.
 *
 * Rates and ETAs are measured from a bar's first update, not from its creation, so start-up work
 * (opening files, the first batch's warm-up) does not inflate or deflate them; they read "…" until
 * a second has passed since that first update.
 */
import { MultiBar, type SingleBar } from 'cli-progress';

export interface ProgressBar {
  /**
   * `done` moves the bar towards its total (and the ETA); `count` is what the rate counts and the
   * line shows (default `done`): an ingestion advances by bytes read but counts records.
   */
  update(done: number, count?: number): void;
  setTotal(total: number | null): void;
}

export interface Progress {
  bar(label: string, total: number | null, unit: string): ProgressBar;
  /** A message between the bars. */
  log(line: string): void;
  /** Prints the last state of every bar and releases the terminal. */
  stop(): void;
}

/** A rate needs this long since the first update before it means anything. */
const MIN_RATE_WINDOW_MS = 1000;
const PLAIN_INTERVAL_MS = 5000;

const formatNumber = (value: number): string => Math.round(value).toLocaleString('en-US');

export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** Count per second and time left, measured from the first update. */
export class RateMeter {
  private first: { at: number; done: number; count: number } | null = null;
  private last: { at: number; done: number; count: number } | null = null;

  constructor(private readonly clock: () => number = Date.now) {}

  record(done: number, count: number): void {
    const sample = { at: this.clock(), done, count };
    if (this.first === null) this.first = sample;
    this.last = sample;
  }

  private window(): number | null {
    if (this.first === null || this.last === null) return null;
    const elapsed = this.last.at - this.first.at;
    return elapsed >= MIN_RATE_WINDOW_MS ? elapsed / 1000 : null;
  }

  /** Count per second, or null before there is a meaningful window. */
  rate(): number | null {
    const seconds = this.window();
    return seconds === null || this.first === null || this.last === null ? null : (this.last.count - this.first.count) / seconds;
  }

  /** Seconds until `done` reaches `total` at the pace so far, or null when unknown. */
  eta(total: number | null): number | null {
    const seconds = this.window();
    if (seconds === null || total === null || this.first === null || this.last === null) return null;
    const pace = (this.last.done - this.first.done) / seconds;
    return pace > 0 ? Math.max(0, total - this.last.done) / pace : null;
  }
}

interface BarState {
  label: string;
  unit: string;
  total: number | null;
  done: number;
  count: number;
  meter: RateMeter;
}

function describe(state: BarState): { countText: string; rateText: string; etaText: string } {
  const rate = state.meter.rate();
  const eta = state.done === state.total ? 0 : state.meter.eta(state.total);
  return {
    countText: `${formatNumber(state.count)} ${state.unit}`,
    rateText: rate === null ? `… ${state.unit}/s` : `${formatNumber(rate)} ${state.unit}/s`,
    etaText: eta === null ? '…' : formatDuration(eta),
  };
}

export function plainLine(state: BarState): string {
  const { countText, rateText, etaText } = describe(state);
  const share = state.total ? ` (${Math.floor((100 * state.done) / state.total)} %)` : '';
  return `${state.label}: ${countText}${share}, ${rateText}${state.total === null ? '' : `, ETA ${etaText}`}`;
}

class TerminalProgress implements Progress {
  private readonly bars: MultiBar;

  constructor(
    stream: NodeJS.WriteStream,
    private readonly clock: () => number,
  ) {
    this.bars = new MultiBar({ stream, hideCursor: true, clearOnComplete: false, barsize: 30, fps: 5, autopadding: true });
  }

  bar(label: string, total: number | null, unit: string): ProgressBar {
    const state: BarState = { label, unit, total, done: 0, count: 0, meter: new RateMeter(this.clock) };
    const format = (withTotal: boolean) =>
      withTotal ? `${label} [{bar}] {percentage}% | {countText} | {rateText} | ETA {etaText}` : `${label} | {countText} | {rateText}`;
    const bar: SingleBar = this.bars.create(total ?? 1, 0, describe(state), { format: format(total !== null) });
    return {
      update: (done, count = done) => {
        state.done = done;
        state.count = count;
        state.meter.record(done, count);
        bar.update(state.total === null ? 0 : done, describe(state));
      },
      setTotal: (next) => {
        state.total = next;
        if (next !== null) bar.setTotal(next);
      },
    };
  }

  log(line: string): void {
    this.bars.log(`${line}\n`);
  }

  stop(): void {
    this.bars.stop();
  }
}

class PlainProgress implements Progress {
  private readonly states: Array<{ state: BarState; printedAt: number; printed: string | null }> = [];

  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly clock: () => number,
    private readonly intervalMs: number,
  ) {}

  bar(label: string, total: number | null, unit: string): ProgressBar {
    const entry = {
      state: { label, unit, total, done: 0, count: 0, meter: new RateMeter(this.clock) } as BarState,
      printedAt: this.clock(),
      printed: null as string | null,
    };
    this.states.push(entry);
    return {
      update: (done, count = done) => {
        entry.state.done = done;
        entry.state.count = count;
        entry.state.meter.record(done, count);
        if (this.clock() - entry.printedAt >= this.intervalMs || done === entry.state.total) this.print(entry);
      },
      setTotal: (next) => {
        entry.state.total = next;
      },
    };
  }

  private print(entry: { state: BarState; printedAt: number; printed: string | null }): void {
    const line = plainLine(entry.state);
    if (line === entry.printed) return;
    this.stream.write(`${line}\n`);
    entry.printed = line;
    entry.printedAt = this.clock();
  }

  log(line: string): void {
    this.stream.write(`${line}\n`);
  }

  stop(): void {
    for (const entry of this.states) if (entry.state.done > 0 || entry.state.count > 0) this.print(entry);
  }
}

export interface ProgressOptions {
  /** Plain mode: least time between two lines of one bar (default 5 s). */
  intervalMs?: number;
  clock?: () => number;
}

/** Bars on a terminal, plain periodic lines otherwise. */
export function createProgress(stream: NodeJS.WriteStream = process.stderr, options: ProgressOptions = {}): Progress {
  const clock = options.clock ?? Date.now;
  return stream.isTTY ? new TerminalProgress(stream, clock) : new PlainProgress(stream, clock, options.intervalMs ?? PLAIN_INTERVAL_MS);
}

/** Reports nothing (tests, MARQUE_LOG_LEVEL=silent). */
export const silentProgress: Progress = {
  bar: () => ({ update: () => undefined, setTotal: () => undefined }),
  log: () => undefined,
  stop: () => undefined,
};
