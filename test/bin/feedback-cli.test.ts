/**
 * `marque feedback list`: the service team's triage queue. Reports filed through the API by two
 * organizations are listed across both, oldest first, each with the organization that filed it.
 */
import { expect } from 'chai';
import { dirname } from 'node:path';
import { ok, send } from '../support/http';
import { startTestApp, type TestApp } from '../support/harness';
import { runMarque } from '../support/serve-process';

interface QueuedReport {
  id: string;
  organization_id: string;
  type: string;
  status: string;
  message: string;
}

describe('bin: marque feedback list (the triage queue)', function () {
  this.timeout(120_000);
  let app: TestApp;
  let dataDir: string;
  const filed: Array<{ id: string; key: 'full' | 'otherOrg'; type: string }> = [];

  before(async () => {
    app = await startTestApp({ marks: 20 });
    dataDir = dirname(app.storePath);
    for (const [key, type] of [
      ['full', 'bug'],
      ['otherOrg', 'data_issue'],
      ['full', 'other'],
    ] as const) {
      const report = await ok<{ id: string }>(await send(app, 'POST', '/v1/feedback', { type, message: `a ${type} report` }, app.keys[key]), 201);
      filed.push({ id: report.id, key, type });
    }
  });
  after(async () => app.close());

  const list = async (...args: string[]): Promise<QueuedReport[]> =>
    JSON.parse((await runMarque(dataDir, 'feedback', 'list', ...args)).stdout) as QueuedReport[];

  it('lists the open reports of every organization, oldest first, with the organization that filed each', async () => {
    const queue = await list();
    expect(queue.map((report) => report.id)).to.deep.equal(filed.map((report) => report.id));
    const [first, second, third] = queue.map((report) => report.organization_id);
    expect([first, third]).to.deep.equal([app.organizationId, app.organizationId]);
    expect(second).to.match(/^org_/).and.not.equal(app.organizationId);
    expect(queue.map((report) => report.status)).to.deep.equal(['open', 'open', 'open']);
    expect(queue[1]).to.include({ type: 'data_issue', message: 'a data_issue report' });
  });

  it('leaves out what the team has moved on, and filters by status, type and length', async () => {
    const [bug, dataIssue, other] = filed as [(typeof filed)[0], (typeof filed)[0], (typeof filed)[0]];
    await runMarque(dataDir, 'feedback', 'acknowledge', bug.id);
    expect((await list()).map((report) => report.id)).to.deep.equal([dataIssue.id, other.id]);
    expect((await list('--status', 'acknowledged')).map((report) => report.id)).to.deep.equal([bug.id]);
    expect((await list('--status', 'open,acknowledged', '--type', 'other')).map((report) => report.id)).to.deep.equal([other.id]);
    expect((await list('--limit', '1')).map((report) => report.id)).to.deep.equal([dataIssue.id]);
  });

  it('refuses an unknown status with exit 2 naming it', async () => {
    const failure = await runMarque(dataDir, 'feedback', 'list', '--status', 'closed').then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).to.equal(2);
    expect(failure?.stderr).to.contain("status: must be a comma list of open, acknowledged, resolved (got 'closed')");
  });
});
