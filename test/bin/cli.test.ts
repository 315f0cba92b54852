import { expect } from 'chai';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveDataDir, type DataDirServer } from '../support/data-dir-server';
import { runMarque as marque } from '../support/serve-process';

describe('bin: the marque command line', function () {
  this.timeout(180_000);
  let dataDir: string;
  let serving: DataDirServer;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'marque-cli-'));
    await marque(dataDir, 'seed', '--marks', '300', '--seed', '5');
    serving = await serveDataDir(dataDir);
  });

  after(async () => {
    await serving.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates an organization and a key while a server runs on the same directory, and the key works at once', async () => {
    const org = JSON.parse((await marque(dataDir, 'orgs', 'create', '--name', 'Acme IP', '--plan', 'beta')).stdout) as { id: string; plan: string };
    expect(org.id).to.match(/^org_/);
    expect(org.plan).to.equal('beta');
    const key = JSON.parse((await marque(dataDir, 'keys', 'create', '--org', org.id, '--scopes', 'trademarks:read,billing:read', '--name', 'ci')).stdout) as {
      id: string;
      prefix: string;
      scopes: string[];
      secret: string;
    };
    expect(key.id).to.match(/^key_/);
    expect(key.secret).to.match(/^mq_[0-9a-f]{48}$/);
    expect(key.secret.startsWith(key.prefix)).to.equal(true);
    expect(key.scopes).to.deep.equal(['trademarks:read', 'billing:read']);
    const response = await fetch(`${serving.baseUrl}/v1/trademarks?offices=US&include_total=true`, { headers: { authorization: `Bearer ${key.secret}` } });
    expect(response.status).to.equal(200);
    const body = (await response.json()) as { pagination: { total_count: number } };
    expect(body.pagination.total_count).to.be.greaterThan(0);
  });

  it('refuses bad arguments with exit code 2 and a message', async () => {
    for (const args of [
      ['keys', 'create', '--org', 'org_x'],
      ['keys', 'create', '--org', 'org_x', '--scopes', 'nope'],
      ['orgs', 'create', '--name', 'x', '--plan', 'gold'],
      ['frobnicate'],
      ['serve', '--workers', '0'],
      ['serve', '--workers', 'many'],
    ]) {
      const error = await marque(dataDir, ...args).then(
        () => null,
        (e: { code: number; stderr: string }) => e,
      );
      expect(error, args.join(' ')).not.to.equal(null);
      expect(error?.code).to.equal(2);
      expect(error?.stderr).to.contain('marque:');
    }
  });

  it('refuses a data directory it cannot create with exit code 2, naming MARQUE_DATA_DIR', async () => {
    const file = join(dataDir, 'marque.sqlite');
    for (const args of [['serve'], ['worker', 'webhooks'], ['orgs', 'create', '--name', 'x']]) {
      // A directory inside a regular file: refused whoever runs it (root included).
      const error = await marque(join(file, 'data'), ...args).then(
        () => null,
        (e: { code: number; stderr: string }) => e,
      );
      expect(error?.code, args.join(' ')).to.equal(2);
      expect(error?.stderr).to.contain(`marque: MARQUE_DATA_DIR ${join(file, 'data')} cannot be used as the data directory: ENOTDIR`);
    }
  });

  it('refuses to seed a store that already holds marks', async () => {
    const error = await marque(dataDir, 'seed', '--marks', '10').then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(error?.stderr).to.contain('already holds marks');
  });

  it('keeps the generated cursor secret private to the owner', () => {
    expect(statSync(join(dataDir, 'cursor-secret.key')).mode & 0o077).to.equal(0);
  });
});
