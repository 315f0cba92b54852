/**
 * A change-feed worker that takes over from another process (its lease passed to this one after
 * it stood by) goes on from the checkpoint the other persisted, not from where this process
 * stood when it started: it reads none of the feed the other already applied. Each worker runs
 * twice over one store, as two processes would, the standby's store counting what it reads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { expect } from 'chai';
import { createEmbeddedDocumentStore } from '../../datasources/embedded/document-store';
import { createEmbeddedMediaStore } from '../../datasources/embedded/media-store';
import { createEmbeddedSearchIndex } from '../../datasources/embedded/search-index';
import { ImageIndex } from '../../datasources/image-index';
import type { DocumentStore, SearchIndex } from '../../datasources/ports';
import { COLLECTIONS, type TrademarkChangeDoc, type TrademarkDoc } from '../../domain/records';
import { ImageIndexer } from '../../workers/image-index';
import { SearchIndexer } from '../../workers/indexer';
import { seedStore } from '../../workers/ingest/seed';
import type { LeasedWork } from '../../workers/worker-lease';
import { WatchEvaluator } from '../../workers/watches/evaluator';
import { WebhookDispatcher } from '../../workers/webhooks/dispatcher';
import { alertEvents } from '../support/webhook-fixtures';

/** A store that counts the feed events read through it and the loop passes that ended (each waits for changes). */
function counting(store: DocumentStore): { store: DocumentStore; read: { events: number; passes: number } } {
  const read = { events: 0, passes: 0 };
  const counted = new Proxy(store, {
    get(target, property) {
      if (property === 'readChanges') {
        return async (...args: Parameters<DocumentStore['readChanges']>) => {
          const batch = await target.readChanges(...args);
          read.events += batch.events.length;
          return batch;
        };
      }
      if (property === 'waitForChanges') {
        return (...args: Parameters<DocumentStore['waitForChanges']>) => {
          read.passes += 1;
          return target.waitForChanges(...args);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store: counted, read };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not reached in time`);
    await delay(10);
  }
}

interface WorkerCase {
  name: string;
  /** One process's copy of the worker over `store`, ready to start (its position loaded, as at a process's start). */
  open(store: DocumentStore): Promise<LeasedWork>;
  /** Three changes of the feed the worker reads. */
  change(): Promise<void>;
}

describe('workers: a worker taking over from another process goes on from its checkpoint', function () {
  this.timeout(60_000);
  let dir: string;
  let store: DocumentStore;
  let search: SearchIndex;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'marque-takeover-'));
    store = createEmbeddedDocumentStore({ path: join(dir, 'marque.sqlite') });
    search = createEmbeddedSearchIndex({ path: join(dir, 'search.sqlite') });
    await seedStore(store, { marks: 5, seed: 11 });
  });

  afterEach(async () => {
    await store.close();
    await search.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const cases: WorkerCase[] = [
    {
      name: 'search indexer',
      async open(over) {
        const indexer = new SearchIndexer(over, search);
        await indexer.ensureIndexes();
        await indexer.catchUp();
        return indexer;
      },
      async change() {
        const marks = store.collection<TrademarkDoc>(COLLECTIONS.trademarks);
        for (const mark of await marks.find({}, { limit: 3 })) await marks.updateOne({ _id: mark._id }, { $set: { office_code: 'ZZ' } });
      },
    },
    {
      name: 'watch evaluator',
      async open(over) {
        const evaluator = new WatchEvaluator(over, search);
        await evaluator.initialize();
        return evaluator;
      },
      async change() {
        const changes = [1, 2, 3].map((version): TrademarkChangeDoc => ({
          _id: `tm_takeover:v${version}`,
          trademark_id: 'tm_takeover',
          version,
          change_type: 'updated',
          changed_fields: ['status_primary'],
          old_values: null,
          new_values: {},
          source_data_date: null,
          office_code: 'US',
          created_at: new Date().toISOString(),
        }));
        await store.collection<TrademarkChangeDoc>(COLLECTIONS.trademarkChanges).insertMany(changes);
      },
    },
    {
      name: 'webhook dispatcher',
      async open(over) {
        const dispatcher = new WebhookDispatcher(over, () => Promise.reject(new Error('no endpoint is registered; nothing is sent')));
        await dispatcher.initialize();
        return dispatcher;
      },
      async change() {
        await store.collection(COLLECTIONS.events).insertMany(alertEvents('org_takeover', 3, new Date()));
      },
    },
    {
      name: 'image indexer',
      async open(over) {
        const media = createEmbeddedMediaStore({ directory: join(dir, 'media'), store: over });
        const indexer = new ImageIndexer(over, media, new ImageIndex({ store: over, directory: join(dir, 'image-index') }));
        await indexer.catchUp();
        return indexer;
      },
      async change() {
        // Images whose marks are gone: read from the feed, with nothing to fingerprint.
        await store.collection(COLLECTIONS.media).insertMany([1, 2, 3].map((i) => ({ _id: `med_takeover${i}`, trademark_id: null })));
      },
    },
  ];

  for (const worker of cases) {
    it(`${worker.name}: reads none of the changes the other process applied while it stood by`, async () => {
      const holderStore = counting(store);
      const standbyStore = counting(store);
      const holder = await worker.open(holderStore.store);
      const standby = await worker.open(standbyStore.store);
      holderStore.read.events = 0;
      standbyStore.read.events = 0;

      await worker.change();
      holder.start();
      await until(() => holderStore.read.events >= 3, 'the holder read the three changes');
      // Stopping lets the pass finish, which persists its checkpoint.
      await holder.stop();

      standby.start();
      const passes = standbyStore.read.passes;
      await until(() => standbyStore.read.passes > passes, 'the standby ran a pass');
      await standby.stop();
      expect(standbyStore.read.events).to.equal(0);
    });
  }
});
