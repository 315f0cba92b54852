/**
 * One running copy of each change-feed worker per data store, however many processes are started
 * with it: `serve` runs the workers in-process, `marque worker …` runs one alone, and an operator
 * may well start both, or two containers. Two indexers would overwrite each other's image-index
 * files, two webhook dispatchers would both send every due delivery.
 *
 * So a worker runs only while its process holds the worker's lease in the KeyValue (the shared
 * `kv.sqlite` of the data directory, or Redis): taken when free, renewed every third of its time
 * to live, released at a clean stop. The others stand by, asking every third of the time to live,
 * and one of them takes over at its next ask after a clean stop, or within 4/3 of the time to live
 * after the holder died (`kill -9` included: the lease lapses a time to live after its last
 * renewal, and the next ask comes at most a third later). A holder that cannot renew in time (the KeyValue unreachable,
 * its event loop stalled) stops its worker, which ends at its next checkpoint, and stands by.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { KeyValue } from '../datasources/ports';

/** What a lease runs: a change-feed worker (or several that run together, as the two indexers). */
export interface LeasedWork {
  start(): void;
  /** Ends after the current batch, whose position is checkpointed. */
  stop(): Promise<void>;
}

export interface WorkerLeaseOptions {
  /** Time to live of the lease (default DEFAULT_LEASE_MS): how long a dead holder keeps the worker. */
  ttlMs?: number;
  /** Told when this process starts the worker, stands by, or stops it for a lost lease. */
  log?: (message: string) => void;
  onError?: (error: unknown) => void;
}

export const DEFAULT_LEASE_MS = 15_000;

/** The KeyValue key of a worker's lease; its value is the holder. */
export const workerLeaseKey = (name: string): string => `worker-lease:${name}`;

/** This process, as a lease holder: host and pid to read (who runs it), and a random part (pids are reused). */
const PROCESS_HOLDER = `${hostname()}/${process.pid}/${randomBytes(4).toString('hex')}`;

export class WorkerLease {
  readonly key: string;
  private readonly ttlMs: number;
  private readonly holder: string;
  private running = false;
  private stopped = true;
  private standingBy = false;
  /** When the last successful hold lapses; a holder that cannot renew before then stops. */
  private heldUntil = 0;
  private timer: NodeJS.Timeout | null = null;
  private check: Promise<void> = Promise.resolve();

  constructor(
    private readonly kv: KeyValue,
    /** The worker's name: one lease per name and store. */
    readonly name: string,
    private readonly work: LeasedWork,
    private readonly options: WorkerLeaseOptions = {},
    /** Several leases of one process share its identity; tests give each its own. */
    holder: string = PROCESS_HOLDER,
  ) {
    this.key = workerLeaseKey(name);
    this.ttlMs = options.ttlMs ?? DEFAULT_LEASE_MS;
    this.holder = holder;
  }

  /** Whether this process runs the worker now. */
  get holds(): boolean {
    return this.running;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops the worker (after its current batch) and releases the lease for the next process. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.check;
    if (!this.running) return;
    this.running = false;
    // Finishing a batch can outlast the lease (a webhook send may take its 15 s of timeouts): the
    // lease is kept until the worker has stopped, so no other process starts beside it.
    const keep = keepHolding(this.kv, this.key, this.holder, this.ttlMs);
    try {
      await this.work.stop();
    } finally {
      clearInterval(keep);
    }
    await this.kv.releaseLease(this.key, this.holder).catch((error: unknown) => this.options.onError?.(error));
  }

  /** The timer keeps the process alive: a `marque worker` standing by has nothing else to. */
  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.check = this.renew().finally(() => {
        if (!this.stopped) this.schedule(Math.floor(this.ttlMs / 3));
      });
    }, delayMs);
  }

  private async renew(): Promise<void> {
    const askedAt = Date.now();
    let held: boolean;
    try {
      held = await this.kv.holdLease(this.key, this.holder, this.ttlMs);
      if (held) this.heldUntil = askedAt + this.ttlMs;
    } catch (error) {
      this.options.onError?.(error);
      // Unanswered: the lease may still be ours until the last hold lapses, and not after.
      held = this.running && Date.now() < this.heldUntil;
    }
    if (this.stopped) {
      if (held && !this.running) await this.kv.releaseLease(this.key, this.holder).catch(() => undefined);
      return;
    }
    if (held) {
      this.standingBy = false;
      if (!this.running) {
        this.running = true;
        this.work.start();
        this.options.log?.(`${this.name} worker: running (this process holds its lease)`);
      }
      return;
    }
    if (this.running) {
      this.running = false;
      this.options.log?.(`${this.name} worker: lease lost; stopping it and standing by`);
      await this.work.stop();
    } else if (!this.standingBy) {
      this.options.log?.(`${this.name} worker: standing by (another process runs it; it takes over when that one stops)`);
    }
    this.standingBy = true;
  }
}

/** Renews `holder`'s lease every third of its time to live while work that must keep it runs; clearInterval ends it. */
function keepHolding(kv: KeyValue, key: string, holder: string, ttlMs: number): NodeJS.Timeout {
  return setInterval(() => void kv.holdLease(key, holder, ttlMs).catch(() => undefined), Math.floor(ttlMs / 3));
}

/** How often a process waiting its turn for one-off work asks for the lease again. */
const TURN_POLL_MS = 250;

/**
 * Runs one-off work that two processes started together must not both do (seeding an empty data
 * directory): under the lease `key`, renewed while `work` runs, after waiting for any other
 * process holding it to finish (`onWait` is told once when it must). `work` should check again
 * whether it is still to be done. Stopped by SIGINT or SIGTERM meanwhile (Ctrl-C during a first
 * start), the process lets go of the lease before it ends, so the next one need not wait for it
 * to lapse; killed outright, its lease lapses after `ttlMs`.
 */
export async function inTurn<T>(kv: KeyValue, key: string, work: () => Promise<T>, options: { ttlMs?: number; onWait?: () => void } = {}): Promise<T> {
  const ttlMs = options.ttlMs ?? DEFAULT_LEASE_MS;
  let waited = false;
  while (!(await kv.holdLease(key, PROCESS_HOLDER, ttlMs))) {
    if (!waited) options.onWait?.();
    waited = true;
    await new Promise((resolve) => setTimeout(resolve, TURN_POLL_MS));
  }
  const keep = keepHolding(kv, key, PROCESS_HOLDER, ttlMs);
  const stopSignals = ['SIGINT', 'SIGTERM'] as const;
  const letGoAndStop = (signal: NodeJS.Signals): void => {
    for (const each of stopSignals) process.removeListener(each, letGoAndStop);
    clearInterval(keep);
    // With this listener gone, the signal raised again ends the process as it would have.
    void kv
      .releaseLease(key, PROCESS_HOLDER)
      .catch(() => undefined)
      .finally(() => process.kill(process.pid, signal));
  };
  for (const signal of stopSignals) process.once(signal, letGoAndStop);
  try {
    return await work();
  } finally {
    for (const signal of stopSignals) process.removeListener(signal, letGoAndStop);
    clearInterval(keep);
    await kv.releaseLease(key, PROCESS_HOLDER);
  }
}
