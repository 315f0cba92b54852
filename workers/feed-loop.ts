/**
 * The loop every change-feed worker runs: do a pass, then sleep until the store reports writes
 * (or a second passes); on a failure, report it and try again a second later. `stop` lets the
 * current pass finish, so a worker stops at its last checkpoint.
 */
import type { DocumentStore } from '../datasources/ports';

const WAIT_MS = 1000;

export class FeedLoop {
  private stopped = true;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly store: DocumentStore,
    /** One pass; returns the feed position it has read up to (what to wait after). */
    private readonly pass: () => Promise<string | null>,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loop = (async () => {
      while (!this.stopped) {
        try {
          await this.store.waitForChanges(await this.pass(), WAIT_MS);
        } catch (error) {
          this.onError(error);
          await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
        }
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
    this.loop = null;
  }
}
