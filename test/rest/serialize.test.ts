import { expect } from 'chai';
import { buildRouteTable } from '../../rest/route-table';
import type { RouteDef } from '../../rest/route';
import { int, object, str } from '../../rest/schemas/json-schema';
import { compileRouteSerializer, PIECEWISE_FROM_UNITS } from '../../rest/serialize';

/** Names in the scripts marks come in, with what JSON must escape and a character outside the BMP. */
const NAMES = ['NOVALUX', 'ШКОДА', 'ΣΚΟΝΤΑ', '商标', 'Café "Déjà vu"', 'back\\slash\ttab', 'emoji 😀 mark', 'line\nbreak'];

interface Item {
  id: string;
  name: string;
  rank: number;
}

/** A list envelope with its members in the schema's order, so JSON.stringify writes the text the contract expects. */
function listBody(count: number): { object: 'list'; data: Item[]; has_more: boolean; pagination: { cursor: null }; request_id: string } {
  const data = Array.from({ length: count }, (_, i) => ({ id: `tm_${String(i).padStart(20, '0')}`, name: NAMES[i % NAMES.length] as string, rank: i }));
  return { object: 'list', data, has_more: false, pagination: { cursor: null }, request_id: 'req_0123456789abcdefghjk' };
}

describe('REST: response serialization', () => {
  const routes = buildRouteTable({ version: 'test', health: { startedAt: 0, now: () => 0, isShuttingDown: () => false, probes: [] } });
  const listRoute = routes.find((route) => route.envelope === 'list') as RouteDef;
  // A real list route with a small item schema, so the bodies' sizes are easy to reason about.
  const route: RouteDef = { ...listRoute, listExtras: undefined, response: object({ id: str(), name: str(), rank: int() }) };
  const serialize = compileRouteSerializer(route);
  const text = (body: string | Buffer): string => (typeof body === 'string' ? body : body.toString('utf8'));

  it('writes a short list as one string, exactly the JSON of the envelope', () => {
    for (const count of [0, 1, 2, 50]) {
      const body = listBody(count);
      const sent = serialize(body);
      expect(sent, `${count} items`).to.be.a('string');
      expect(sent).to.equal(JSON.stringify(body));
    }
  });

  it(`writes a list of ${PIECEWISE_FROM_UNITS} UTF-16 units or more as UTF-8 bytes of that same JSON, escapes and astral characters included`, () => {
    for (const count of [1_000, 4_000, 10_000]) {
      const body = listBody(count);
      const expected = JSON.stringify(body);
      expect(expected.length).to.be.at.least(PIECEWISE_FROM_UNITS);
      const sent = serialize(body);
      expect(Buffer.isBuffer(sent), `${count} items`).to.equal(true);
      expect((sent as Buffer).equals(Buffer.from(expected, 'utf8'))).to.equal(true);
    }
  });

  it('writes the same text on either side of the threshold', () => {
    const unitsPerItem = JSON.stringify(listBody(9)).length - JSON.stringify(listBody(8)).length;
    const around = Math.round(PIECEWISE_FROM_UNITS / unitsPerItem);
    for (let count = around - 20; count <= around + 20; count++) {
      const body = listBody(count);
      expect(text(serialize(body)), `${count} items`).to.equal(JSON.stringify(body));
    }
  });

  it('keeps the members a list envelope carries besides data (search_meta)', () => {
    const search = routes.find((candidate) => candidate.path === '/v1/trademarks' && candidate.method === 'GET') as RouteDef;
    expect(search.listExtras).to.have.property('search_meta');
    const searchLike: RouteDef = { ...search, response: object({ id: str(), name: str(), rank: int() }) };
    const meta = { total_results: null, total_count_exact: false, total_count_approximate: false };
    const { request_id: requestId, ...rest } = listBody(3_000);
    const body = { ...rest, search_meta: meta, request_id: requestId };
    expect(JSON.parse(text(compileRouteSerializer(searchLike)(body)))).to.deep.equal(body);
  });
});
