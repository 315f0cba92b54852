/**
 * `marque serve` logs (issue 19): one JSON line per request event on stderr, carrying the
 * request id its client sees in Request-Id, and never a credential.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeAdapters, openAdapters } from '../../bin/adapters';
import { readConfig } from '../../bin/config';
import { CUSTOMER_SCOPES } from '../../domain/scopes';
import { createApiKey } from '../../resolvers/accounts/api-keys';
import { createOrganization } from '../../resolvers/accounts/organizations';
import { startServe } from '../support/serve-process';

describe('bin: marque serve writes structured JSON request logs', function () {
  this.timeout(120_000);
  let dataDir: string;
  let secret: string;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'marque-logs-'));
    const adapters = await openAdapters(readConfig({ MARQUE_DATA_DIR: dataDir }));
    try {
      const org = await createOrganization(adapters.store, { name: 'Logs' });
      secret = (await createApiKey(adapters.store, { organizationId: org._id, name: 'k', scopes: [...CUSTOMER_SCOPES] })).secret;
    } finally {
      await closeAdapters(adapters);
    }
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('a line per request with its Request-Id, status and route; no API key in any line', async () => {
    const serve = await startServe({ MARQUE_DATA_DIR: dataDir, MARQUE_DEMO_MARKS: '0', MARQUE_DRAIN_MS: '0' });
    let requestId: string | null;
    try {
      const response = await fetch(`${serve.baseUrl}/v1/offices`, { headers: { authorization: `Bearer ${secret}` } });
      expect(response.status).to.equal(200);
      requestId = response.headers.get('request-id');
      const refused = await fetch(`${serve.baseUrl}/v1/offices`, { headers: { authorization: `Bearer mq_${'0'.repeat(48)}` } });
      expect(refused.status).to.equal(401);
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exit;
    }
    const lines = serve
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { reqId?: string; msg: string; level: number; res?: { statusCode: number }; req?: { url: string; method: string } });
    const ours = lines.filter((line) => line.reqId === requestId);
    expect(ours.map((line) => line.msg)).to.include.members(['incoming request', 'request completed']);
    expect(ours.find((line) => line.req)?.req).to.include({ method: 'GET', url: '/v1/offices' });
    expect(ours.find((line) => line.res)?.res?.statusCode).to.equal(200);
    expect(serve.stderr()).not.to.contain(secret.slice(3));
    expect(serve.stderr()).not.to.contain('0'.repeat(48));
  });
});
