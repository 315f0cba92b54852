/**
 * The demo's change simulator (`npm start` on the demo dataset): writes a few marks a minute
 * through the one write path, so the demo watches produce alerts a newcomer can read within a
 * minute. Each tick files a new US application in class 9 (half of them near-duplicates of the
 * demo similarity watch's mark) or, every third, publishes a US mark of the catalog approved and
 * awaiting publication (class 9 first, oldest filing first), as the USPTO's weekly gazette would:
 * publication follows examination, so a filing of the day is never published (once none awaits,
 * only filings are made). Seeded, so two runs tell the same story. Off with
 * MARQUE_DEMO_CHANGES_PER_MINUTE=0.
 */
import type { DocumentStore } from '../datasources/ports';
import { COLLECTIONS, type TrademarkDoc } from '../domain/records';
import { markText, nearDuplicate } from './ingest/generator/names';
import { Random } from './ingest/generator/random';
import { addMark, updateMark } from './ingest/manual-marks';
import { MarkWriter } from './ingest/mark-writer';

/** The mark the demo similarity watch protects; the simulator files look-alikes of it. */
export const DEMO_PROTECTED_MARK = 'LUMINARA';

export class DemoChanges {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private readonly writer: MarkWriter;
  private readonly random: Random;
  private ticks = 0;

  constructor(
    private readonly store: DocumentStore,
    private readonly perMinute: number,
    seed: number,
    private readonly onError: (error: unknown) => void,
  ) {
    this.writer = new MarkWriter(store);
    this.random = new Random(seed);
  }

  /** One change: file a new application, or publish a mark awaiting publication. */
  async tick(): Promise<string> {
    const today = new Date().toISOString().slice(0, 10);
    this.ticks += 1;
    const publish = this.ticks % 3 === 0 ? await this.awaitingPublication() : null;
    if (publish !== null) {
      await updateMark(this.store, this.writer, publish, { status: 'published', eventType: 'published', publicationDate: today, today });
      return publish;
    }
    const text = this.ticks % 2 === 1 ? nearDuplicate(DEMO_PROTECTED_MARK, this.random) : markText(this.random);
    const { trademark_id } = await addMark(this.store, this.writer, {
      markText: text,
      officeCode: 'US',
      classes: [9],
      ownerName: null,
      status: 'pending',
      today,
    });
    return trademark_id;
  }

  /** The next US mark approved and awaiting publication: in class 9 if any, the oldest filing first. */
  private async awaitingPublication(): Promise<string | null> {
    const marks = this.store.collection<TrademarkDoc>(COLLECTIONS.trademarks);
    const awaiting = { office_code: 'US', 'status.stage': 'pending_publication' };
    const oldest = { sort: { filing_date: 1, _id: 1 }, limit: 1 } as const;
    // The second query only when no class 9 mark awaits.
    const inClass9 = (await marks.find({ ...awaiting, 'classifications.nice_class': 9 }, oldest))[0];
    return (inClass9 ?? (await marks.find(awaiting, oldest))[0])?._id ?? null;
  }

  start(): void {
    if (this.perMinute <= 0 || this.timer !== null) return;
    this.timer = setInterval(() => {
      this.running = this.tick().catch(this.onError);
    }, 60_000 / this.perMinute);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
