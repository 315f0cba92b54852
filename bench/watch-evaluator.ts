/**
 * `npm run bench:watches`: the watch evaluator on a copy of the seeded bench data directory.
 *
 * 1. Throughput: 1,000 active watches of mixed types (400 filter, 400 similarity on real mark
 *    texts of the store, 200 trademark watches of 10 marks each), then 10,000 changed marks
 *    written through the one write path (5,000 new applications, a third of them near-duplicates
 *    of watched marks; 5,000 updates of existing marks, watched ones among them), then one
 *    `catchUp` timed: changes per second and alerts made (goal: 10,000 changes under 60 s).
 * 2. Lag: the evaluator running in its loop while 2,000 more changes are written as fast as the
 *    write path goes; the feed positions it trails by, sampled every 100 ms, and how long it takes
 *    to drain once the writes stop.
 *
 * Settings (environment): BENCH_MARKS (20000; the figure is on 1,000,000, which needs
 * its 9.5 GB copied), BENCH_OUTPUT (BENCHMARKS-WATCHES.md).
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { closeAdapters, openAdapters } from '../bin/adapters';
import { readConfig } from '../bin/config';
import { COLLECTIONS, type TrademarkDoc, type WatchDoc } from '../domain/records';
import { randomId } from '../domain/ids';
import { checkWatchQuery } from '../resolvers/watches/query';
import { Random } from '../workers/ingest/generator/random';
import { nearDuplicate } from '../workers/ingest/generator/names';
import { addMark, updateMark } from '../workers/ingest/manual-marks';
import { MarkWriter } from '../workers/ingest/mark-writer';
import { WATCH_EVALUATOR_CHECKPOINT_ID } from '../workers/feed-checkpoints';
import { WatchEvaluator } from '../workers/watches/evaluator';
import { prepareDataset } from './dataset';
import { PROJECT_ROOT } from './processes';
import { machineDescription } from './report';
import { envInt, percentile } from './samples';

const marks = envInt('BENCH_MARKS', 20_000);
const output = process.env.BENCH_OUTPUT ?? join(PROJECT_ROOT, 'BENCHMARKS-WATCHES.md');
const CHANGES = envInt('BENCH_CHANGES', 10_000);
const LAG_CHANGES = CHANGES / 5;
const OFFICES = ['US', 'EM', 'GB', 'CN', 'JP', 'DE', 'FR', 'AU', 'CA', 'KR'];

async function main(): Promise<void> {
  const dataset = await prepareDataset(join(PROJECT_ROOT, '.tmp', 'bench-data'), marks);
  const dir = join(PROJECT_ROOT, '.tmp', 'bench-watches');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(dataset.dir, dir, { recursive: true });
  const adapters = await openAdapters(readConfig({ MARQUE_DATA_DIR: dir }));
  try {
    const store = adapters.store;
    const random = new Random(7);
    const sample = await store.collection<TrademarkDoc>(COLLECTIONS.trademarks).findByIds(dataset.ids);
    const organizationId = 'org_bench_watches';
    const at = new Date().toISOString();
    const watch = (watchType: WatchDoc['watch_type'], query: unknown): WatchDoc => ({
      _id: randomId('wch_'),
      organization_id: organizationId,
      name: null,
      watch_type: watchType,
      status: 'active',
      query: checkWatchQuery(watchType, query),
      metadata: {},
      evaluate_from: at,
      created_at: at,
      updated_at: at,
    });
    const watches: WatchDoc[] = [
      ...Array.from({ length: 400 }, (_, i) =>
        watch('filter', {
          filters: { offices: [OFFICES[i % OFFICES.length]], niceClasses: [1 + (i % 45)], ...(i % 4 === 0 ? { statusPrimary: ['pending'] } : {}) },
        }),
      ),
      ...Array.from({ length: 400 }, (_, i) => watch('similarity', { q: (sample[i % sample.length] as TrademarkDoc).mark_text })),
      ...Array.from({ length: 200 }, (_, i) =>
        watch('trademark', { trademark_ids: sample.slice((i * 10) % 900, ((i * 10) % 900) + 10).map((mark) => mark._id) }),
      ),
    ];
    await store.collection<WatchDoc>(COLLECTIONS.watches).insertMany(watches);

    const evaluator = new WatchEvaluator(store, adapters.search);
    await store.collection(COLLECTIONS.meta).deleteOne({ _id: WATCH_EVALUATOR_CHECKPOINT_ID });
    await evaluator.initialize();
    const writer = new MarkWriter(store);
    const today = new Date().toISOString().slice(0, 10);
    const write = async (i: number): Promise<void> => {
      if (i % 2 === 0) {
        const base = (sample[i % sample.length] as TrademarkDoc).mark_text;
        const text = i % 3 === 0 ? nearDuplicate(base.toUpperCase(), random) : `${base.split(' ')[0] ?? base} ${i}`;
        await addMark(store, writer, {
          markText: text,
          officeCode: OFFICES[i % OFFICES.length] as string,
          classes: [1 + (i % 45)],
          ownerName: null,
          status: 'pending',
          today,
        });
      } else {
        const mark = sample[i % sample.length] as TrademarkDoc;
        await updateMark(store, writer, mark._id, { status: null, eventType: 'office_action_issued', publicationDate: null, today });
      }
    };

    const writeStarted = performance.now();
    for (let i = 0; i < CHANGES; i++) await write(i);
    const writeSeconds = (performance.now() - writeStarted) / 1000;
    const evalStarted = performance.now();
    const report = await evaluator.catchUp();
    const evalSeconds = (performance.now() - evalStarted) / 1000;

    // Lag: the evaluator in its loop while more changes arrive.
    evaluator.start();
    const lags: number[] = [];
    let writing = true;
    // Positions of the embedded store are row numbers, so trailing is a difference of them.
    const behind = async (): Promise<number> => Number(await store.latestPosition()) - Number(evaluator.evaluatedPosition ?? 0);
    const sampler = (async () => {
      while (writing) {
        lags.push(await behind());
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const lagStarted = performance.now();
    for (let i = CHANGES; i < CHANGES + LAG_CHANGES; i++) await write(i);
    const lagWriteSeconds = (performance.now() - lagStarted) / 1000;
    writing = false;
    await sampler;
    // Drained when the evaluator has read past the last change written (its own event-log writes come after).
    const lastWritten = Number(await store.latestPosition());
    const drainStarted = performance.now();
    while (Number(evaluator.evaluatedPosition ?? 0) < lastWritten) await new Promise((resolve) => setTimeout(resolve, 20));
    const drainSeconds = (performance.now() - drainStarted) / 1000;
    await evaluator.stop();
    const sortedLags = lags.sort((a, b) => a - b);
    const machine = machineDescription();

    const lines = [
      '# Benchmarks: the watch evaluator',
      '',
      `Generated by \`BENCH_MARKS=${marks} npm run bench:watches\` (bench/watch-evaluator.ts) on ${new Date().toISOString()}.`,
      '',
      `- Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB RAM; Node ${machine.node}; load average ${machine.load}.`,
      `- Data: a copy of the embedded bench data directory with ${marks.toLocaleString('en-US')} generated marks.`,
      '- Watches: 1,000 active (400 filter on office + class, a quarter also on status; 400 similarity on mark texts of the store; 200 trademark watches of 10 marks each).',
      '',
      '## Throughput',
      '',
      '| what | figure |',
      '|---|---|',
      `| changes written (half new marks, half updates) | ${CHANGES.toLocaleString('en-US')} in ${writeSeconds.toFixed(1)} s (${Math.round(CHANGES / writeSeconds)} /s) |`,
      `| evaluated by one catchUp | ${report.changes.toLocaleString('en-US')} changes in ${evalSeconds.toFixed(1)} s (${Math.round(report.changes / evalSeconds)} changes/s) |`,
      `| alerts made | ${report.alerts.toLocaleString('en-US')} |`,
      `| goal: 10,000 changes against 1,000 watches under 60 s | ${evalSeconds * (10_000 / report.changes) < 60 ? 'met' : '**missed**'} (scaled to 10,000 when fewer ran) |`,
      '',
      '## Lag behind the feed',
      '',
      `${LAG_CHANGES.toLocaleString('en-US')} more changes written in ${lagWriteSeconds.toFixed(1)} s (${Math.round(LAG_CHANGES / lagWriteSeconds)} /s) while the evaluator ran in its loop.`,
      `Feed entries it trailed by (every collection's, its own event-log writes included), sampled every 100 ms: p50 ${percentile(sortedLags, 0.5)}, p99 ${percentile(sortedLags, 0.99)}, max ${sortedLags[sortedLags.length - 1] ?? 0}.`,
      `Drained ${drainSeconds.toFixed(2)} s after the last write.`,
      '',
    ];
    writeFileSync(output, lines.join('\n'));
    console.log(lines.join('\n'));
  } finally {
    await closeAdapters(adapters);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
