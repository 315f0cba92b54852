/**
 * The behaviour every KeyValue adapter must show, run unchanged against each of them. Expected
 * figures follow from the port's documented semantics (a window unit counts while
 * `timestamp > now - windowMs`) and hand calculation.
 */
import { expect } from 'chai';
import type { KeyValue, WindowCheck } from '../../datasources/ports';
import type { HammerOrder, HammerReport } from '../support/key-value-hammer';
import { runHammers } from '../support/key-value-processes';
import { openKeyValue, type KeyValueSpec } from '../support/key-value-spec';

const MINUTE_MS = 60_000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * `spec` is read when the suite starts (a server's URL may be known only then); the suite opens
 * its store from it, and so do the child processes of the cross-process tests.
 */
export function describeKeyValueContract(name: string, spec: () => KeyValueSpec): void {
  describe(`KeyValue contract: ${name}`, () => {
    let store: KeyValue;
    let keySequence = 0;
    const runId = Math.random().toString(36).slice(2, 8);
    /** A key no other test (or earlier run against a shared server) uses. */
    const uniqueKey = (label: string): string => `contract:${runId}:${label}:${++keySequence}`;

    before(async () => {
      store = await openKeyValue(spec());
    });
    after(async () => {
      await store.close();
    });

    describe('plain keys', () => {
      it('returns null for a missing key and the value after set', async () => {
        const key = uniqueKey('plain');
        expect(await store.get(key)).to.equal(null);
        expect(await store.set(key, 'one')).to.equal(true);
        expect(await store.get(key)).to.equal('one');
      });

      it('forgets a key after its ttl', async () => {
        const key = uniqueKey('ttl');
        await store.set(key, 'short', { ttlMs: 50 });
        expect(await store.get(key)).to.equal('short');
        await sleep(80);
        expect(await store.get(key)).to.equal(null);
      });

      it('onlyIfAbsent sets a missing key and refuses an existing one', async () => {
        const key = uniqueKey('nx');
        expect(await store.set(key, 'first', { onlyIfAbsent: true })).to.equal(true);
        expect(await store.set(key, 'second', { onlyIfAbsent: true })).to.equal(false);
        expect(await store.get(key)).to.equal('first');
      });

      it('deletes a key', async () => {
        const key = uniqueKey('delete');
        await store.set(key, 'gone soon');
        await store.delete(key);
        expect(await store.get(key)).to.equal(null);
      });

      it('increments from zero and keeps adding', async () => {
        const key = uniqueKey('increment');
        expect(await store.increment(key, 1)).to.equal(1);
        expect(await store.increment(key, 4)).to.equal(5);
        expect(await store.get(key)).to.equal('5');
      });

      it('sets the ttl when increment creates the key, and keeps it on later increments', async () => {
        const key = uniqueKey('increment-ttl');
        await store.increment(key, 1, 150);
        await sleep(90);
        await store.increment(key, 1, 150);
        // 180 ms after creation: past the first ttl, well before a ttl restarted at 90 ms (240 ms).
        await sleep(90);
        expect(await store.get(key)).to.equal(null);
      });
    });

    describe('leases', () => {
      it('gives an absent lease to its first holder, keeps it for that holder and refuses another', async () => {
        const key = uniqueKey('lease');
        expect(await store.holdLease(key, 'worker-a', 60_000)).to.equal(true);
        expect(await store.holdLease(key, 'worker-a', 60_000)).to.equal(true);
        expect(await store.holdLease(key, 'worker-b', 60_000)).to.equal(false);
      });

      it('lets another holder take a lease once it has expired', async () => {
        const key = uniqueKey('lease-expiry');
        expect(await store.holdLease(key, 'worker-a', 50)).to.equal(true);
        await sleep(80);
        expect(await store.holdLease(key, 'worker-b', 60_000)).to.equal(true);
        expect(await store.holdLease(key, 'worker-a', 60_000)).to.equal(false);
      });

      it('extends the lease from each renewal by its holder', async () => {
        const key = uniqueKey('lease-renewal');
        await store.holdLease(key, 'worker-a', 150);
        await sleep(90);
        expect(await store.holdLease(key, 'worker-a', 150)).to.equal(true);
        // 180 ms after the first hold: past its 150 ms, within the renewal's (until 240 ms).
        await sleep(90);
        expect(await store.holdLease(key, 'worker-b', 60_000)).to.equal(false);
      });

      it('ends a lease when its holder releases it, and not when another holder does', async () => {
        const key = uniqueKey('lease-release');
        await store.holdLease(key, 'worker-a', 60_000);
        await store.releaseLease(key, 'worker-b');
        expect(await store.holdLease(key, 'worker-b', 60_000)).to.equal(false);
        await store.releaseLease(key, 'worker-a');
        expect(await store.holdLease(key, 'worker-b', 60_000)).to.equal(true);
      });
    });

    describe('sliding windows', () => {
      const window = (label: string, limit: number): WindowCheck => ({ key: uniqueKey(label), limit, windowMs: MINUTE_MS });

      it('admits up to the limit and refuses the next request', async () => {
        const check = window('limit', 3);
        const now = Date.now();
        const decisions = [];
        for (let index = 0; index < 4; index += 1) decisions.push(await store.consumeWindows([check], 1, now + index));
        expect(decisions.map((decision) => decision.allowed)).to.deep.equal([true, true, true, false]);
        expect(decisions[2]!.windows[0]).to.include({ used: 3, remaining: 0, limit: 3, key: check.key });
      });

      it('charges every window when all have room', async () => {
        const plan = window('plan', 5);
        const tier = window('tier', 10);
        const decision = await store.consumeWindows([plan, tier], 1, Date.now());
        expect(decision.allowed).to.equal(true);
        expect(decision.windows.map((state) => [state.used, state.remaining])).to.deep.equal([
          [1, 4],
          [1, 9],
        ]);
      });

      it('refuses when one window is full and charges none of them', async () => {
        const plan = window('plan', 5);
        const tier = window('tier', 2);
        const now = Date.now();
        await store.consumeWindows([plan, tier], 1, now);
        await store.consumeWindows([plan, tier], 1, now + 1);
        const refused = await store.consumeWindows([plan, tier], 1, now + 2);
        expect(refused.allowed).to.equal(false);
        expect(refused.windows.map((state) => state.used)).to.deep.equal([2, 2]);
        const peeked = await store.peekWindows([plan, tier], now + 3);
        expect(peeked.map((state) => state.used)).to.deep.equal([2, 2]);
      });

      it('charges `cost` units and refuses a cost that does not fit', async () => {
        const check = window('cost', 5);
        const now = Date.now();
        expect((await store.consumeWindows([check], 3, now)).windows[0]!.used).to.equal(3);
        const refused = await store.consumeWindows([check], 3, now + 1);
        expect(refused.allowed).to.equal(false);
        expect(refused.windows[0]!.used).to.equal(3);
        expect((await store.consumeWindows([check], 2, now + 2)).allowed).to.equal(true);
      });

      it('slides: a request stops counting windowMs after it was made', async () => {
        const check = window('slide', 2);
        const start = Date.now();
        await store.consumeWindows([check], 1, start);
        await store.consumeWindows([check], 1, start + 30_000);
        const full = await store.consumeWindows([check], 1, start + 45_000);
        expect(full.allowed).to.equal(false);
        // The request at `start` leaves the window at start + 60 s: 15 s after the refusal.
        expect(full.windows[0]!.resetMs).to.equal(15_000);
        const stillFull = await store.consumeWindows([check], 1, start + 59_999);
        expect(stillFull.allowed).to.equal(false);
        expect(stillFull.windows[0]!.resetMs).to.equal(1);
        const admitted = await store.consumeWindows([check], 1, start + MINUTE_MS);
        expect(admitted.allowed).to.equal(true);
        expect(admitted.windows[0]!.used).to.equal(2);
      });

      it('reports resetMs 0 while there is room and the wait for room once full', async () => {
        const check = window('reset', 2);
        const start = Date.now();
        const first = await store.consumeWindows([check], 1, start);
        expect(first.windows[0]!.resetMs).to.equal(0);
        const second = await store.consumeWindows([check], 1, start + 10_000);
        // Full now: the next request fits when the first one leaves, 60 s after start.
        expect(second.windows[0]).to.include({ remaining: 0, resetMs: 50_000 });
        const [peeked] = await store.peekWindows([check], start + 20_000);
        expect(peeked).to.include({ used: 2, remaining: 0, resetMs: 40_000 });
      });

      it('peekWindows reads without charging', async () => {
        const check = window('peek', 4);
        const now = Date.now();
        await store.consumeWindows([check], 1, now);
        await store.peekWindows([check], now + 1);
        await store.peekWindows([check], now + 2);
        const [state] = await store.peekWindows([check], now + 3);
        expect(state).to.include({ used: 1, remaining: 3, resetMs: 0 });
      });

      it('admits exactly the limit among 50 concurrent requests', async () => {
        const check = window('concurrent', 20);
        const tier = window('concurrent-tier', 1000);
        const now = Date.now();
        const decisions = await Promise.all(Array.from({ length: 50 }, (_, index) => store.consumeWindows([check, tier], 1, now + (index % 3))));
        expect(decisions.filter((decision) => decision.allowed)).to.have.length(20);
        const [plan, ceiling] = await store.peekWindows([check, tier], now + 5);
        expect(plan!.used).to.equal(20);
        expect(ceiling!.used).to.equal(20);
      });
    });

    describe('quota counters', () => {
      const inOneHour = (): number => Date.now() + 3_600_000;

      it('counts up to the limit and refuses beyond it', async () => {
        const check = { key: uniqueKey('quota'), limit: 2, resetsAt: inOneHour() };
        const now = Date.now();
        const first = await store.consumeCounters([check], 1, now);
        const second = await store.consumeCounters([check], 1, now);
        const third = await store.consumeCounters([check], 1, now);
        expect([first.allowed, second.allowed, third.allowed]).to.deep.equal([true, true, false]);
        expect(second.counters[0]).to.deep.equal({ key: check.key, limit: 2, used: 2, resetsAt: check.resetsAt });
        expect(third).to.deep.include({ refusedIndex: 0 });
        expect(third.counters[0]!.used).to.equal(2);
      });

      it('names the first refusing counter and charges none when one refuses', async () => {
        const resetsAt = inOneHour();
        const monthly = { key: uniqueKey('monthly'), limit: 100, resetsAt };
        const daily = { key: uniqueKey('daily'), limit: 1, resetsAt };
        const now = Date.now();
        expect((await store.consumeCounters([monthly, daily], 1, now)).refusedIndex).to.equal(-1);
        const refused = await store.consumeCounters([monthly, daily], 1, now);
        expect(refused.allowed).to.equal(false);
        expect(refused.refusedIndex).to.equal(1);
        const peeked = await store.peekCounters([monthly, daily], now);
        expect(peeked.map((state) => state.used)).to.deep.equal([1, 1]);
      });

      it('counts an unlimited (null) counter without ever refusing', async () => {
        const check = { key: uniqueKey('unlimited'), limit: null, resetsAt: inOneHour() };
        let decision = await store.consumeCounters([check], 1000, Date.now());
        decision = await store.consumeCounters([check], 1000, Date.now());
        expect(decision.allowed).to.equal(true);
        expect(decision.counters[0]).to.include({ used: 2000, limit: null });
      });

      it('starts again from zero at resetsAt', async () => {
        const check = { key: uniqueKey('reset'), limit: 1, resetsAt: Date.now() + 100 };
        expect((await store.consumeCounters([check], 1, Date.now())).allowed).to.equal(true);
        expect((await store.consumeCounters([check], 1, Date.now())).allowed).to.equal(false);
        await sleep(150);
        const next = { ...check, resetsAt: Date.now() + 3_600_000 };
        const [peeked] = await store.peekCounters([next], Date.now());
        expect(peeked!.used).to.equal(0);
        expect((await store.consumeCounters([next], 1, Date.now())).allowed).to.equal(true);
      });

      it('peekCounters reports zero for a counter never charged', async () => {
        const check = { key: uniqueKey('untouched'), limit: 5, resetsAt: inOneHour() };
        expect(await store.peekCounters([check], Date.now())).to.deep.equal([{ key: check.key, limit: 5, used: 0, resetsAt: check.resetsAt }]);
      });
    });

    describe('idempotency records', () => {
      const DAY_MS = 86_400_000;

      it('lets exactly one of 10 concurrent callers start a key; the others see it in flight', async () => {
        const key = uniqueKey('idem');
        const outcomes = await Promise.all(Array.from({ length: 10 }, (_, index) => store.beginIdempotent(key, `fingerprint-${index}`, 30_000)));
        const started = outcomes.filter((outcome) => outcome.state === 'started');
        expect(started).to.have.length(1);
        const winner = `fingerprint-${outcomes.findIndex((outcome) => outcome.state === 'started')}`;
        for (const outcome of outcomes.filter((candidate) => candidate.state !== 'started')) {
          expect(outcome).to.deep.equal({ state: 'in_flight', fingerprint: winner });
        }
      });

      it('replays the stored response once completed', async () => {
        const key = uniqueKey('idem-complete');
        expect(await store.beginIdempotent(key, 'body-hash', 30_000)).to.deep.equal({ state: 'started' });
        await store.completeIdempotent(key, 'body-hash', '{"status":201}', DAY_MS);
        expect(await store.beginIdempotent(key, 'other-hash', 30_000)).to.deep.equal({
          state: 'completed',
          fingerprint: 'body-hash',
          response: '{"status":201}',
        });
      });

      it('lets the key start again after abandon', async () => {
        const key = uniqueKey('idem-abandon');
        await store.beginIdempotent(key, 'first', 30_000);
        await store.abandonIdempotent(key);
        expect(await store.beginIdempotent(key, 'second', 30_000)).to.deep.equal({ state: 'started' });
        expect(await store.beginIdempotent(key, 'third', 30_000)).to.deep.equal({ state: 'in_flight', fingerprint: 'second' });
      });

      it('frees an in-flight claim after inFlightTtlMs', async () => {
        const key = uniqueKey('idem-expiry');
        await store.beginIdempotent(key, 'crashed', 50);
        await sleep(80);
        expect(await store.beginIdempotent(key, 'retry', 30_000)).to.deep.equal({ state: 'started' });
      });
    });

    describe('across processes', () => {
      const PROCESSES = 4;
      const ATTEMPTS = 150;
      // Limits at half and two thirds of the 600 attempts, reached while every process is still
      // hammering; the other window and counter have room for every attempt, so they show whether
      // a refusal charged them anyway.
      // Ten-minute windows: nothing leaves them however slowly a busy machine runs the processes.
      const windows: WindowCheck[] = [
        { key: uniqueKey('processes-plan'), limit: 300, windowMs: 10 * MINUTE_MS },
        { key: uniqueKey('processes-tier'), limit: 10_000, windowMs: 10 * MINUTE_MS },
      ];
      const resetsAt = Date.now() + 3_600_000;
      const counters = [
        { key: uniqueKey('processes-monthly'), limit: 10_000, resetsAt },
        { key: uniqueKey('processes-daily'), limit: 400, resetsAt },
      ];
      const idempotencyKey = uniqueKey('processes-idem');
      const slotKey = uniqueKey('processes-slot');
      const leaseKey = uniqueKey('processes-lease');
      const incrementKey = uniqueKey('processes-increment');
      let reports: HammerReport[];

      before(async function () {
        // Four TypeScript processes start on a machine that may be busy with other test files.
        this.timeout(120_000);
        const order = (index: number): HammerOrder => ({
          store: spec(),
          attempts: ATTEMPTS,
          windows,
          counters,
          idempotencyKey,
          fingerprint: `process-${index}`,
          slotKey,
          leaseKey,
          incrementKey,
        });
        reports = await runHammers(Array.from({ length: PROCESSES }, (_, index) => order(index)));
      });

      const sum = (count: (report: HammerReport) => number): number => reports.reduce((total, report) => total + count(report), 0);

      it('admits exactly the window limit among 4 processes hammering one window, charging both windows only together', async () => {
        expect(sum((report) => report.windowsAdmitted)).to.equal(300);
        const states = await store.peekWindows(windows, Date.now());
        expect(states.map((state) => state.used)).to.deep.equal([300, 300]);
      });

      it('admits exactly the counter limit among 4 processes hammering one counter, charging both counters only together', async () => {
        expect(sum((report) => report.countersAdmitted)).to.equal(400);
        const states = await store.peekCounters(counters, Date.now());
        expect(states.map((state) => state.used)).to.deep.equal([400, 400]);
      });

      it('lets exactly one of 4 processes start an idempotency key; the others see its fingerprint in flight', () => {
        const winners = reports.flatMap((report, index) => (report.idempotency.state === 'started' ? [`process-${index}`] : []));
        expect(winners).to.have.length(1);
        for (const report of reports.filter((candidate) => candidate.idempotency.state !== 'started')) {
          expect(report.idempotency).to.deep.equal({ state: 'in_flight', fingerprint: winners[0] });
        }
      });

      it('lets exactly one of 4 processes set an absent key with onlyIfAbsent', async () => {
        const takers = reports.flatMap((report, index) => (report.slotTaken ? [`process-${index}`] : []));
        expect(takers).to.have.length(1);
        expect(await store.get(slotKey)).to.equal(takers[0]);
      });

      it('gives a lease to exactly one of 4 processes taking it at once', async () => {
        const holders = reports.flatMap((report, index) => (report.leaseHeld ? [`process-${index}`] : []));
        expect(holders).to.have.length(1);
        expect(await store.holdLease(leaseKey, 'late-comer', 60_000)).to.equal(false);
      });

      it('adds up the increments of every process', async () => {
        expect(await store.get(incrementKey)).to.equal(String(PROCESSES * ATTEMPTS));
      });
    });

    it('answers ping', async () => {
      await store.ping();
    });
  });
}
