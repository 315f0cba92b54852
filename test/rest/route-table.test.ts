import { expect } from 'chai';
import { buildSchema, OperationRegistry } from '../../resolvers/engine';
import { buildRouteTable, operationNames } from '../../rest/route-table';

describe('REST: the route table and its persisted operations', () => {
  const registry = new OperationRegistry(buildSchema());
  const routes = buildRouteTable({ version: 'test', health: { startedAt: 0, now: () => 0, isShuttingDown: () => false, probes: [] } });

  it('names only operations that exist, and every operation is run by some route', () => {
    expect(() => registry.assertUsedExactly(operationNames(routes))).not.to.throw();
    for (const route of routes) if (route.kind === 'operation') expect(registry.names(), route.id).to.include(route.operation);
  });

  it('refuses, at start, a misspelt operation name and an operation no route runs', () => {
    const names = operationNames(routes);
    expect(() => registry.assertUsedExactly([...names, 'GetTrademrak'])).to.throw(/named but missing from schema\/operations\/: GetTrademrak/);
    expect(() => registry.assertUsedExactly(names.filter((name) => name !== 'GetTrademark'))).to.throw(/used by nothing: GetTrademark$/);
  });

  it('gives every route a unique operation ID and a unique method and path', () => {
    expect(new Set(routes.map((route) => route.id)).size).to.equal(routes.length);
    expect(new Set(routes.map((route) => `${route.method} ${route.path}`)).size).to.equal(routes.length);
  });

  it('leaves out when null only members its response schema does not require', () => {
    for (const route of routes) {
      for (const member of route.absentWhenNull ?? []) {
        expect(route.envelope, route.id).to.equal('single');
        expect(route.response.properties ?? {}, route.id).to.have.property(member);
        expect(route.response.required ?? [], route.id).not.to.include(member);
      }
    }
  });

  it('puts every suggest endpoint in the search tier (spec, Per-minute windows: "trademark search and suggest endpoints")', () => {
    const suggest = routes.filter((route) => route.path.endsWith('/suggest'));
    expect(suggest.length).to.be.at.least(4);
    expect(suggest.filter((route) => route.tier !== 'search').map((route) => `${route.method} ${route.path}`)).to.deep.equal([]);
  });

  it('puts no POST, PATCH or DELETE in the reads tier (spec, Per-minute windows: reads is GET, HEAD, OPTIONS; writes the other methods outside the search tier)', () => {
    const misplaced = routes.filter((route) => route.method !== 'GET' && route.tier === 'reads').map((route) => `${route.method} ${route.path}`);
    expect(misplaced).to.deep.equal([]);
  });
});
