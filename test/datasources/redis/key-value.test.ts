import { expect } from 'chai';
import { createRedisKeyValue } from '../../../datasources/redis/key-value';
import { DependencyUnavailableError, type KeyValue } from '../../../datasources/ports';
import { canSpawnRedisServer, canStartRedisServer, spawnRedisServer, startRedisServer, type TestRedisServer } from '../../support/redis-server';
import { describeKeyValueContract } from '../key-value.contract';

const OUTAGE_WINDOW = [{ key: 'outage', limit: 10, windowMs: 60_000 }];

/** Runs `call`, which must reject, and returns the rejection and how long it took to arrive. */
async function rejectionOf(call: () => Promise<unknown>): Promise<{ error: unknown; elapsedMs: number }> {
  const startedAt = Date.now();
  try {
    await call();
  } catch (error) {
    return { error, elapsedMs: Date.now() - startedAt };
  }
  throw new Error('expected the call to reject');
}

async function expectUnavailableWithin(call: () => Promise<unknown>, maxMs: number): Promise<void> {
  const { error, elapsedMs } = await rejectionOf(call);
  expect(error).to.be.instanceOf(DependencyUnavailableError);
  expect((error as DependencyUnavailableError).dependency).to.equal('cache');
  expect(elapsedMs).to.be.below(maxMs);
}

async function untilAnswering(store: KeyValue, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await store.ping();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

function required(server: TestRedisServer | null): TestRedisServer {
  if (server === null) throw new Error('redis-server became unavailable while the tests started');
  return server;
}

// Mocha registers tests synchronously, so availability is decided before any server starts.
if (canStartRedisServer()) {
  describe('Redis KeyValue', () => {
    let server: TestRedisServer;
    before(async () => {
      server = required(await startRedisServer());
    });
    after(async () => {
      await server.stop();
    });

    describeKeyValueContract('redis', () => ({ adapter: 'redis', url: server.url, keyPrefix: `test:${process.pid}:` }));
  });
} else {
  process.stderr.write('Redis KeyValue contract suite did not run: no redis-server on PATH and no REDIS_URL\n');
}

if (canSpawnRedisServer()) {
  describe('Redis KeyValue during a Redis outage', () => {
    let server: TestRedisServer;
    let store: KeyValue;
    before(async () => {
      server = required(await spawnRedisServer());
      store = await createRedisKeyValue({ url: server.url });
    });
    after(async () => {
      await store.close();
      await server.stop();
    });

    it('rejects with DependencyUnavailableError within 2 s once Redis dies, and recovers after it restarts', async () => {
      expect((await store.consumeWindows(OUTAGE_WINDOW, 1, Date.now())).allowed).to.equal(true);
      await server.kill();
      await expectUnavailableWithin(() => store.ping(), 2_000);
      await expectUnavailableWithin(() => store.consumeWindows(OUTAGE_WINDOW, 1, Date.now()), 2_000);
      await expectUnavailableWithin(() => store.beginIdempotent('outage', 'hash', 30_000), 2_000);

      await server.restart();
      await untilAnswering(store, 5_000);
      const decision = await store.consumeWindows(OUTAGE_WINDOW, 1, Date.now());
      expect(decision.allowed).to.equal(true);
    });

    it('rejects with DependencyUnavailableError after timeoutMs when Redis stops answering', async () => {
      const impatient = await createRedisKeyValue({ url: server.url, timeoutMs: 300 });
      try {
        await impatient.ping();
        await server.pause();
        try {
          await expectUnavailableWithin(() => impatient.consumeWindows(OUTAGE_WINDOW, 1, Date.now()), 1_000);
        } finally {
          await server.resume();
        }
        await untilAnswering(impatient, 2_000);
      } finally {
        await impatient.close();
      }
    });

    it('starts while Redis is down, rejecting quickly, and serves once Redis is up', async () => {
      await server.kill();
      const startedAt = Date.now();
      const lateStore = await createRedisKeyValue({ url: server.url });
      expect(Date.now() - startedAt).to.be.below(2_000);
      try {
        await expectUnavailableWithin(() => lateStore.ping(), 2_000);
        await server.restart();
        await untilAnswering(lateStore, 5_000);
        expect(await lateStore.increment('late', 1)).to.equal(1);
      } finally {
        await lateStore.close();
      }
    });
  });
} else {
  process.stderr.write('Redis KeyValue outage tests did not run: no redis-server on PATH\n');
}
