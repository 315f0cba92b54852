import { expect } from 'chai';
import eventTypes from '../../data/event_types.json';
import niceClasses from '../../data/nice_classes.json';
import offices from '../../data/offices.json';
import viennaCategories from '../../data/vienna_categories.json';
import { beforeShared, type TestApp } from '../support/harness';

interface ListBody {
  object: string;
  data: Array<Record<string, unknown>>;
  has_more: boolean;
  pagination: { cursor: string | null };
  request_id: string;
}

async function list(app: TestApp, path: string): Promise<ListBody> {
  const response = await app.get(path);
  const body = (await response.json()) as ListBody;
  expect(response.status, JSON.stringify(body)).to.equal(200);
  expect(body.object).to.equal('list');
  expect(body.has_more).to.equal(false);
  expect(body.pagination).to.deep.equal({ cursor: null });
  expect(body.request_id).to.match(/^req_/);
  return body;
}

async function expect400(app: TestApp, path: string, parameter: string): Promise<void> {
  const response = await app.get(path);
  const body = (await response.json()) as { error: { type: string; detail: string } };
  expect(response.status).to.equal(400);
  expect(body.error.type).to.equal('validation_error');
  expect(body.error.detail).to.contain(parameter);
}

describe('REST: reference data', function () {
  let app: TestApp;

  beforeShared((fixture) => {
    app = fixture.app;
  });

  it('lists every office of data/offices.json with its fields', async () => {
    const body = await list(app, '/v1/offices');
    expect(body.data.map((o) => o.code)).to.deep.equal(offices.map((o) => o.office_code));
    const em = body.data.find((o) => o.code === 'EM') as Record<string, unknown>;
    const source = offices.find((o) => o.office_code === 'EM') as (typeof offices)[number];
    expect(em).to.include({ object: 'office', name: source.name, kind: 'regional', legacy_code: 'em', time_zone: source.time_zone });
    expect(em.covers).to.deep.equal(source.covers);
    expect((body.data.find((o) => o.code === 'US') as Record<string, unknown>).covers).to.deep.equal([]);
  });

  it('filters offices by kind and Madrid membership', async () => {
    const regional = await list(app, '/v1/offices?kind=regional');
    expect(regional.data.map((o) => o.code)).to.deep.equal(offices.filter((o) => o.kind === 'regional').map((o) => o.office_code));
    const nonMadrid = await list(app, '/v1/offices?madrid_member=false');
    expect(nonMadrid.data.map((o) => o.code)).to.deep.equal(offices.filter((o) => !o.madrid_member).map((o) => o.office_code));
    await expect400(app, '/v1/offices?kind=local', 'kind');
    await expect400(app, '/v1/offices?madrid_member=yes', 'madrid_member');
  });

  it('lists jurisdictions including member states reached through regional offices', async () => {
    const body = await list(app, '/v1/jurisdictions');
    const expected = new Set([...offices.map((o) => o.jurisdiction_code), ...offices.flatMap((o) => o.covers ?? [])]);
    expect(body.data.map((j) => j.code)).to.deep.equal([...expected].sort());
    const de = body.data.find((j) => j.code === 'DE') as Record<string, unknown>;
    expect(de).to.deep.include({ offices: ['DE'], covered_by: ['EM'] });
    const bg = body.data.find((j) => j.code === 'BG') as Record<string, unknown>;
    expect(bg).to.deep.include({ name: 'Bulgaria', offices: [], covered_by: ['EM'] });
    const be = body.data.find((j) => j.code === 'BE') as Record<string, unknown>;
    expect(be.covered_by).to.have.members(['EM', 'BX']);
    const eu = body.data.find((j) => j.code === 'EU') as Record<string, unknown>;
    expect((eu.member_states as string[]).length).to.equal(27);
  });

  it('lists Nice classes with the 13-2026 heading by default and 12-2025 on request', async () => {
    const current = await list(app, '/v1/classifications');
    expect(current.data.length).to.equal(45);
    expect(current.data.map((c) => c.heading)).to.deep.equal(niceClasses.map((c) => c.heading_ncl13_2026));
    expect(current.data.every((c) => c.version === '13-2026')).to.equal(true);
    const old = await list(app, '/v1/classifications?version=12-2025');
    expect(old.data.map((c) => c.heading)).to.deep.equal(niceClasses.map((c) => c.heading));
    const services = await list(app, '/v1/classifications?kind=services');
    expect(services.data.map((c) => c.class)).to.deep.equal([35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45]);
    await expect400(app, '/v1/classifications?version=11-2023', 'version');
  });

  it('lists Vienna categories with the verified flags as the data has them', async () => {
    const body = await list(app, '/v1/design-codes');
    expect(body.data.map((c) => [c.code, c.divisions_verified])).to.deep.equal(
      viennaCategories.map((c) => [c.code, 'divisions_verified' in c ? c.divisions_verified : null]),
    );
    const one = await list(app, '/v1/design-codes?category=01');
    expect(one.data).to.have.length(1);
    expect(one.data[0]!.divisions).to.deep.equal(viennaCategories[0]!.divisions);
    await expect400(app, '/v1/design-codes?category=1', 'category');
  });

  it('lists event types, filterable by category: the prosecution events, then the webhook events with their payload schemas', async () => {
    // The webhook event types of issue 16 (spec: Events shows alert.created; the rest is the service's design).
    const webhookTypes = [
      'alert.created',
      'watch.created',
      'watch.updated',
      'watch.paused',
      'watch.resumed',
      'watch.deleted',
      'webhook_endpoint.disabled',
      'webhook.test',
    ];
    const body = await list(app, '/v1/event-types');
    expect(body.data.map((t) => t.code)).to.deep.equal([...eventTypes.map((t) => t.code), ...webhookTypes]);
    const webhook = await list(app, '/v1/event-types?category=webhook');
    expect(webhook.data.map((t) => t.code)).to.deep.equal(webhookTypes);
    const alertCreated = webhook.data[0] as { payload_schema: { type: string; properties: Record<string, unknown> } };
    expect(alertCreated.payload_schema.type).to.equal('object');
    expect(alertCreated.payload_schema.properties).to.include.keys('alert_id', 'watch_id', 'trademark_id', 'must_act_by', 'opposition_window_status');
    expect(body.data[0]!.payload_schema, 'prosecution events are not delivered, so they carry no payload').to.equal(null);
    const maintenance = await list(app, '/v1/event-types?category=maintenance');
    expect(maintenance.data.map((t) => t.code)).to.deep.equal(eventTypes.filter((t) => t.category === 'maintenance').map((t) => t.code));
    await expect400(app, '/v1/event-types?category=party', 'category');
  });

  it('needs a key with trademarks:read', async () => {
    expect((await app.get('/v1/offices', null)).status).to.equal(401);
    expect((await app.get('/v1/offices', app.keys.billingOnly)).status).to.equal(403);
  });
});
