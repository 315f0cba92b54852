/**
 * The webhook and worker settings of bin/config.ts: defaults, accepted values and the refusal of
 * anything else, named by variable (README: Configuration).
 */
import { expect } from 'chai';
import { availableParallelism } from 'node:os';
import { ConfigError, readConfig } from '../../bin/config';

describe('bin/config: environment, workers and webhook timeouts', () => {
  it('defaults to development, every worker in serve, 5 s to connect and 10 s for the answer', () => {
    const config = readConfig({});
    expect(config.environment).to.equal('development');
    expect(config.workers).to.deep.equal(['indexer', 'watches', 'webhooks']);
    expect([config.webhookConnectTimeoutMs, config.webhookResponseTimeoutMs]).to.deep.equal([5_000, 10_000]);
  });

  it('seeds a 20,000-mark demo on an empty directory, none in production unless MARQUE_DEMO_MARKS asks for one', () => {
    expect(readConfig({}).demoMarks).to.equal(20_000);
    expect(readConfig({ MARQUE_ENV: 'production' }).demoMarks).to.equal(0);
    expect(readConfig({ MARQUE_ENV: 'production', MARQUE_DEMO_MARKS: '300' }).demoMarks).to.equal(300);
  });

  it('refuses a MARQUE_CURSOR_SECRET shorter than 32 characters, naming it, and takes one of 32', () => {
    expect(() => readConfig({ MARQUE_CURSOR_SECRET: 'x' })).to.throw(ConfigError, /MARQUE_CURSOR_SECRET must be at least 32 characters \(got 1\)/);
    expect(readConfig({ MARQUE_CURSOR_SECRET: 'a'.repeat(32) }).cursorSecret).to.equal('a'.repeat(32));
    expect(readConfig({}).cursorSecret).to.equal(null);
  });

  it('runs one HTTP process per core unless MARQUE_WORKERS says otherwise (1 to 64)', () => {
    expect(readConfig({}).serveWorkers).to.equal(availableParallelism());
    expect(readConfig({ MARQUE_WORKERS: '3' }).serveWorkers).to.equal(3);
    for (const bad of ['0', '65', 'two'])
      expect(() => readConfig({ MARQUE_WORKERS: bad }), bad).to.throw(ConfigError, /MARQUE_WORKERS must be an integer from 1 to 64/);
  });

  it('reads MARQUE_ENV, MARQUE_FEED_WORKERS (a list, or none) and the timeouts', () => {
    const config = readConfig({
      MARQUE_ENV: 'production',
      MARQUE_FEED_WORKERS: 'indexer, watches',
      MARQUE_WEBHOOK_CONNECT_TIMEOUT_MS: '2000',
      MARQUE_WEBHOOK_RESPONSE_TIMEOUT_MS: '15000',
    });
    expect(config).to.include({ environment: 'production', webhookConnectTimeoutMs: 2_000, webhookResponseTimeoutMs: 15_000 });
    expect(config.workers).to.deep.equal(['indexer', 'watches']);
    expect(readConfig({ MARQUE_FEED_WORKERS: 'none' }).workers).to.deep.equal([]);
  });

  it('reads MARQUE_WORKER_LEASE_MS (15 s unless set, at least 1 s)', () => {
    expect(readConfig({}).workerLeaseMs).to.equal(15_000);
    expect(readConfig({ MARQUE_WORKER_LEASE_MS: '4000' }).workerLeaseMs).to.equal(4_000);
    expect(() => readConfig({ MARQUE_WORKER_LEASE_MS: '10' })).to.throw(ConfigError, /MARQUE_WORKER_LEASE_MS/);
  });

  it('refuses an unknown environment, worker or timeout, naming the variable', () => {
    expect(() => readConfig({ MARQUE_ENV: 'prod' })).to.throw(ConfigError, /MARQUE_ENV/);
    expect(() => readConfig({ MARQUE_FEED_WORKERS: 'indexer,mailer' })).to.throw(ConfigError, /MARQUE_FEED_WORKERS.*mailer/);
    expect(() => readConfig({ MARQUE_WEBHOOK_RESPONSE_TIMEOUT_MS: 'soon' })).to.throw(ConfigError, /MARQUE_WEBHOOK_RESPONSE_TIMEOUT_MS/);
  });

  it('reads the MCP base URL, authorization server and stdio key; a base URL must be http(s) and loses its trailing slash', () => {
    const config = readConfig({ MARQUE_PUBLIC_URL: 'https://api.marque.example/', MARQUE_AUTH_URL: 'https://auth.marque.example', MARQUE_API_KEY: 'mq_x' });
    expect(config).to.include({ publicUrl: 'https://api.marque.example', authUrl: 'https://auth.marque.example', apiKey: 'mq_x' });
    expect(readConfig({})).to.include({ publicUrl: null, authUrl: null, apiKey: null });
    expect(() => readConfig({ MARQUE_AUTH_URL: 'ftp://auth.example' })).to.throw(ConfigError, /MARQUE_AUTH_URL/);
    expect(() => readConfig({ MARQUE_PUBLIC_URL: 'marque.example' })).to.throw(ConfigError, /MARQUE_PUBLIC_URL/);
  });
});
