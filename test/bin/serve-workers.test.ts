/**
 * `marque serve --workers 2`: two HTTP processes behind one port and a primary that runs the
 * change-feed workers. What a client must not be able to tell: limits and quotas are as exact as
 * with one process, an idempotency key creates one resource, one change makes one alert and one
 * delivery, /metrics counts every process's requests, a mark changed by another process is never
 * answered from a worker's cache as it was; a crashed worker is replaced; SIGTERM drains all of them.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { HTTP_NODE_OPTIONS } from '../../bin/config';
import { createEmbeddedDocumentStore } from '../../datasources/embedded/document-store';
import { COLLECTIONS, type OrganizationDoc } from '../../domain/records';
import { CUSTOMER_SCOPES } from '../../domain/scopes';
import { createApiKey } from '../../resolvers/accounts/api-keys';
import { createOrganization } from '../../resolvers/accounts/organizations';
import { STORE_INDEXES } from '../../resolvers/store-indexes';
import { MARQUE, startServe, type ServeProcess } from '../support/serve-process';
import { WebhookReceiver } from '../support/webhook-receiver';

interface Answer {
  status: number;
  body: { [key: string]: unknown; error?: { type: string } };
}

/**
 * One request on a connection of its own (no keep-alive), so the primary's round-robin spreads a
 * burst of them over both workers.
 */
function request(baseUrl: string, method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      `${baseUrl}${path}`,
      {
        method,
        agent: false,
        headers: { authorization: `Bearer ${key}`, ...(payload ? { 'content-type': 'application/json' } : {}), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Answer['body'] }));
      },
    );
    req.on('error', reject);
    req.setTimeout(15_000, () => req.destroy(new Error(`${method} ${path}: no answer in 15 s`)));
    req.end(payload);
  });
}

const count = (answers: Answer[], status: number): number => answers.filter((answer) => answer.status === status).length;

/** The HTTP worker processes of a primary (its children). */
function workerPids(primary: number): number[] {
  const out = spawnSync('ps', ['-o', 'pid=', '--ppid', String(primary)], { encoding: 'utf8' }).stdout;
  return out
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0);
}

describe('bin: marque serve --workers 2', function () {
  this.timeout(180_000);
  let dataDir: string;
  let serve: ServeProcess;
  let demoKey: string;
  /** A key of an organization with small limits: 30 searches a minute, 250 reads a month (a daily sub-cap of 25). */
  let limitedKey: string;
  let markId: string;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'marque-serve-workers-'));
    serve = await startServe({ MARQUE_DATA_DIR: dataDir, MARQUE_WORKERS: '2', MARQUE_DEMO_MARKS: '300', MARQUE_DEMO_CHANGES_PER_MINUTE: '0' });
    demoKey = readFileSync(join(dataDir, 'demo-key.txt'), 'utf8').trim();
    // Written beside the running server, as `marque orgs create` and `keys create` would.
    const store = createEmbeddedDocumentStore({ path: join(dataDir, 'marque.sqlite'), feedCollections: [] });
    try {
      await store.ensureIndexes(STORE_INDEXES);
      const org = await createOrganization(store, { name: 'Small limits', plan: 'beta' });
      await store
        .collection<OrganizationDoc>(COLLECTIONS.organizations)
        .updateOne({ _id: org._id }, { $set: { limits_override: { per_minute: { search: 30 }, monthly: { read: 250 } } } });
      markId = ((await store.collection(COLLECTIONS.trademarks).find({}, { limit: 1 }))[0] as { _id: string })._id;
      limitedKey = (await createApiKey(store, { organizationId: org._id, name: 'limited', scopes: [...CUSTOMER_SCOPES] })).secret;
    } finally {
      await store.close();
    }
  });

  after(async () => {
    if (serve.child.exitCode === null) {
      serve.child.kill('SIGKILL');
      await serve.exit;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs two HTTP worker processes under the primary', () => {
    expect(workerPids(serve.child.pid as number)).to.have.length(2);
    expect(serve.stderr()).to.match(/serving http:\/\/\S+\/v1 \(2 workers; data: /);
  });

  it("starts its HTTP workers with the HTTP processes' Node options, though the primary was started without them", () => {
    const commandLine = (pid: number): string[] => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    expect(commandLine(serve.child.pid as number)).not.to.include.members([...HTTP_NODE_OPTIONS]);
    for (const pid of workerPids(serve.child.pid as number)) expect(commandLine(pid), `worker ${pid}`).to.include.members([...HTTP_NODE_OPTIONS]);
  });

  it('admits exactly the per-minute limit across both workers (30 of 45 concurrent searches)', async () => {
    const answers = await Promise.all(Array.from({ length: 45 }, () => request(serve.baseUrl, 'GET', '/v1/trademarks?q=light', limitedKey)));
    expect(count(answers, 200)).to.equal(30);
    expect(count(answers, 429)).to.equal(15);
    expect(answers.filter((answer) => answer.status === 429).every((answer) => answer.body.error?.type === 'rate_limited')).to.equal(true);
  });

  it('admits exactly the daily quota across both workers (25 of 40 concurrent reads: 10 % of a monthly 250)', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, () => request(serve.baseUrl, 'GET', `/v1/trademarks/${markId}`, limitedKey)));
    expect(count(answers, 200), JSON.stringify(answers.map((answer) => answer.body.error ?? answer.status))).to.equal(25);
    expect(count(answers, 429)).to.equal(15);
    expect(answers.filter((answer) => answer.status === 429).every((answer) => answer.body.error?.type === 'quota_exceeded')).to.equal(true);
  });

  it('creates one watch for one Idempotency-Key sent concurrently to both workers', async () => {
    const body = { watch_type: 'filter', name: 'Idempotent across workers', query: { filters: { offices: ['au'], niceClasses: [45] } } };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => request(serve.baseUrl, 'POST', '/v1/watches', demoKey, body, { 'idempotency-key': 'cluster-watch-1' })),
    );
    // Each answer is the one watch (first or replayed) or "still being processed" (409).
    const created = answers.filter((answer) => answer.status === 201);
    expect(created.length + count(answers, 409)).to.equal(8);
    expect(new Set(created.map((answer) => answer.body.id)).size).to.equal(1);
    const watches = await request(serve.baseUrl, 'GET', '/v1/watches?limit=100', demoKey);
    expect((watches.body.data as Array<{ name: string }>).filter((watch) => watch.name === body.name)).to.have.length(1);
  });

  it('makes one alert and one webhook delivery for one matching change, whatever the worker count', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const endpoint = await request(
        serve.baseUrl,
        'POST',
        '/v1/webhooks',
        demoKey,
        { url: receiver.url, enabled_events: ['alert.created'] },
        {
          'idempotency-key': 'cluster-endpoint-1',
        },
      );
      expect(endpoint.status).to.equal(201);
      const watch = await request(
        serve.baseUrl,
        'POST',
        '/v1/watches',
        demoKey,
        {
          watch_type: 'filter',
          name: 'New Zealand class 7',
          query: { filters: { offices: ['nz'], niceClasses: [7] } },
        },
        { 'idempotency-key': 'cluster-watch-2' },
      );
      expect(watch.status).to.equal(201);
      const added = spawnSync(process.execPath, [MARQUE, 'marks', 'add', '--mark-text', 'Vaka Pump', '--office', 'NZ', '--classes', '7'], {
        env: { ...process.env, MARQUE_DATA_DIR: dataDir, MARQUE_LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      });
      expect(added.status, added.stderr).to.equal(0);
      await receiver.waitFor(1, 20_000);
      // Time for a second alert or delivery, were one coming.
      await delay(2_500);
      const alerts = await request(serve.baseUrl, 'GET', `/v1/alerts?watch_id=${String(watch.body.id)}`, demoKey);
      expect(alerts.body.data, JSON.stringify(alerts.body.data)).to.have.length(1);
      expect(receiver.received).to.have.length(1);
      expect((JSON.parse(receiver.received[0]?.body ?? '{}') as { type: string }).type).to.equal('alert.created');
    } finally {
      await receiver.close();
    }
  });

  it("answers a mark changed by another process with the change at once, from either worker's document cache", async () => {
    const path = `/v1/trademarks/${markId}`;
    // Ten reads on ten connections reach both workers, and each keeps the mark from its second read.
    const before = await Promise.all(Array.from({ length: 10 }, () => request(serve.baseUrl, 'GET', path, demoKey)));
    const published = before[0]?.body.publication_date;
    expect(before.map((answer) => answer.body.publication_date)).to.deep.equal(Array(10).fill(published));
    const newDate = published === '2026-11-02' ? '2026-11-03' : '2026-11-02';
    const updated = spawnSync(process.execPath, [MARQUE, 'marks', 'update', markId, '--publication-date', newDate], {
      env: { ...process.env, MARQUE_DATA_DIR: dataDir, MARQUE_LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
    expect(updated.status, updated.stderr).to.equal(0);
    const after = await Promise.all(Array.from({ length: 10 }, () => request(serve.baseUrl, 'GET', path, demoKey)));
    expect(after.map((answer) => answer.body.publication_date)).to.deep.equal(Array(10).fill(newDate));
  });

  it('/metrics counts the requests answered by every worker', async () => {
    const before = await metricValue(serve.baseUrl, 'marque_http_requests_total{route="/v1/offices",method="GET",status="200"}');
    const answers = await Promise.all(Array.from({ length: 12 }, () => request(serve.baseUrl, 'GET', '/v1/offices', demoKey)));
    expect(count(answers, 200)).to.equal(12);
    const after = await metricValue(serve.baseUrl, 'marque_http_requests_total{route="/v1/offices",method="GET",status="200"}');
    expect(after - before).to.equal(12);
  });

  it('replaces a worker that crashes, and keeps answering meanwhile', async () => {
    const primary = serve.child.pid as number;
    const [victim, survivor] = workerPids(primary);
    process.kill(victim as number, 'SIGKILL');
    // Connections handed to the worker as it died die with it (as on any crashed server); from the
    // moment the primary has seen the exit, the survivor takes every connection.
    const noticed = `HTTP worker ${victim} exited (SIGKILL); starting another`;
    for (let tries = 0; tries < 100 && !serve.stderr().includes(noticed); tries++) await delay(50);
    const during = await Promise.all(Array.from({ length: 6 }, () => request(serve.baseUrl, 'GET', '/v1/offices', demoKey)));
    expect(count(during, 200)).to.equal(6);
    let pids: number[] = [];
    for (let tries = 0; tries < 100; tries++) {
      pids = workerPids(primary);
      if (pids.length === 2 && !pids.includes(victim as number)) break;
      await delay(100);
    }
    expect(pids).to.have.length(2);
    expect(pids).to.include(survivor);
    // The new worker has joined: a burst over fresh connections reaches it and succeeds.
    await delay(1_500);
    const after = await Promise.all(Array.from({ length: 6 }, () => request(serve.baseUrl, 'GET', '/v1/offices', demoKey)));
    expect(count(after, 200)).to.equal(6);
  });

  it('drains every process on SIGTERM and exits 0', async () => {
    const primary = serve.child.pid as number;
    const workers = workerPids(primary);
    serve.child.kill('SIGTERM');
    expect(await serve.exit).to.equal(0);
    for (const pid of workers) expect(() => process.kill(pid, 0), `worker ${pid} still running`).to.throw();
  });
});

async function metricValue(baseUrl: string, series: string): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe('bin: marque serve --workers 2 on a port already in use', function () {
  this.timeout(60_000);

  it('stops with exit code 1 and names the address, instead of restarting workers forever', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'marque-serve-port-'));
    const taken = http.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const run = spawnSync(process.execPath, [MARQUE, 'serve', '--workers', '2'], {
        env: { ...process.env, MARQUE_DATA_DIR: dataDir, MARQUE_DEMO_MARKS: '0', PORT: String(port), MARQUE_LOG_LEVEL: 'info' },
        encoding: 'utf8',
        timeout: 50_000,
      });
      expect(run.status).to.equal(1);
      expect(run.stderr).to.include(`EADDRINUSE 127.0.0.1:${port}`);
      expect(run.stderr).to.include('an HTTP worker failed to start');
    } finally {
      taken.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
