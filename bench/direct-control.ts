/**
 * The direct control of the detail-read benchmark: a plain Fastify route that reads the same
 * records from the same SQLite file with prepared statements (the mark, its owners, attorneys and
 * their firms) and answers the same JSON through the same fast-json-stringify serializer as the
 * real route, with none of the gateway's stages (auth, limits, GraphQL, DataLoader).
 *
 * With BENCH_WORKERS=N it runs N such processes on the port with node:cluster, as `marque serve
 * --workers N` does, so the two are compared at the same worker count.
 *
 *   BENCH_DATA_DIR=… PORT=… [BENCH_WORKERS=N] node -r ts-node/register/transpile-only bench/direct-control.ts
 */
import cluster from 'node:cluster';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import type { AttorneyDoc, FirmDoc, OwnerDoc, TrademarkDoc } from '../domain/records';
import { oppositionWindowFor } from '../resolvers/trademarks/opposition-window';
import { newRequestId } from '../rest/app';
import { buildEnvelope } from '../rest/envelope';
import { buildRouteTable } from '../rest/route-table';
import { compileRouteSerializer } from '../rest/serialize';

const dir = process.env.BENCH_DATA_DIR ?? '';
const port = Number(process.env.PORT);
const workers = Number(process.env.BENCH_WORKERS ?? '1');

const db = new Database(join(dir, 'marque.sqlite'), { readonly: true });
const byId = db.prepare<[string], string>('SELECT doc FROM trademarks WHERE _id = ?').pluck();
const manyOf = (collection: string) => db.prepare<[string], string>(`SELECT doc FROM ${collection} WHERE _id IN (SELECT value FROM json_each(?))`).pluck();
const ownersOf = manyOf('owners');
const attorneysOf = manyOf('attorneys');
const firmsOf = manyOf('firms');

function loadMany<T extends { _id: string }>(statement: Database.Statement<[string], string>, ids: readonly string[]): Map<string, T> {
  if (ids.length === 0) return new Map();
  return new Map(
    statement
      .all(JSON.stringify(ids))
      .map((json) => JSON.parse(json) as T)
      .map((doc) => [doc._id, doc]),
  );
}

/** The detail object the Trademark field resolvers produce, built directly from the rows. */
function detailOf(doc: TrademarkDoc): Record<string, unknown> {
  const owners = loadMany<OwnerDoc>(ownersOf, doc.owner_ids);
  const attorneys = [...loadMany<AttorneyDoc>(attorneysOf, doc.attorney_ids).values()];
  const firms = loadMany<FirmDoc>(
    firmsOf,
    attorneys.flatMap((a) => (a.firm_id === null ? [] : [a.firm_id])),
  );
  const markOwners = doc.owner_ids.flatMap((id) => owners.get(id) ?? []);
  return {
    ...doc,
    id: doc._id,
    object: 'trademark',
    is_madrid: doc.filing_route === 'madrid' || doc.ir_number !== null,
    has_media: doc.media.length > 0,
    has_proceedings: doc.proceeding_count > 0,
    owner_name: markOwners[0]?.name ?? null,
    owners: markOwners.map((o) => ({
      id: o._id,
      name: o.name,
      country_code: o.country_code,
      entity_id: o.entity_id,
      entity_id_type: o.entity_id_type,
      companies: o.companies,
    })),
    attorneys: doc.attorney_ids
      .flatMap((id) => attorneys.find((a) => a._id === id) ?? [])
      .map((a) => ({
        id: a._id,
        name: a.name,
        country_code: a.country_code,
        firm_id: a.firm_id,
        firm_name: a.firm_id === null ? null : (firms.get(a.firm_id)?.name ?? null),
      })),
    opposition_window: oppositionWindowFor(doc, new Date()),
  };
}

const routes = buildRouteTable({ version: '1.0.0', health: { startedAt: Date.now(), now: () => Date.now(), isShuttingDown: () => false, probes: [] } });
const found = routes.find((r) => r.id === 'getTrademark');
if (!found) throw new Error('route getTrademark not found');
const route = found;
const serialize = compileRouteSerializer(route);

function listen(): void {
  const app = Fastify({ logger: false });
  app.get('/v1/trademarks/:id', async (request, reply) => {
    const json = byId.get((request.params as { id: string }).id);
    if (json === undefined) return reply.status(404).send();
    const body = serialize(buildEnvelope(route, detailOf(JSON.parse(json) as TrademarkDoc), newRequestId()));
    return reply.type('application/json; charset=utf-8').send(body);
  });
  app.listen({ host: '127.0.0.1', port }).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

if (cluster.isPrimary && workers > 1) {
  for (let i = 0; i < workers; i++) cluster.fork();
  process.once('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    setTimeout(() => process.exit(0), 1000);
  });
} else {
  listen();
}
