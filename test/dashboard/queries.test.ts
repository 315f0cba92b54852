/**
 * The dashboard's GraphQL operations against the server's schema: every named operation of
 * dashboard/src/queries.ts parses, is named as its key, and validates (graphql-js `validate`)
 * against the schema the server builds. A schema change that would break a page fails here.
 * Also: the dashboard's browser TypeScript type-checks (root tsc does not see it), and the new
 * trademarkStats aggregation answers what the overview charts.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'chai';
import { Kind, parse, validate, type OperationDefinitionNode } from 'graphql';
import { OPERATIONS } from '../../dashboard/src/queries';
import { buildSchema } from '../../resolvers/engine';
import { projectRoot } from '../../resolvers/project-root';
import { monthWindow } from '../../resolvers/analytics/catalog';
import { startTestApp, type TestApp } from '../support/harness';

describe('dashboard: GraphQL operations (issue 22)', () => {
  const schema = buildSchema();

  for (const [name, source] of Object.entries(OPERATIONS)) {
    it(`${name} validates against the schema`, () => {
      const document = parse(source);
      const operations = document.definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
      expect(operations.map((operation) => operation.name?.value)).to.deep.equal([name]);
      const errors = validate(schema, document);
      expect(errors.map((error) => error.message)).to.deep.equal([]);
    });
  }

  it("the dashboard's browser code type-checks (dashboard/tsconfig.json)", function () {
    this.timeout(120_000);
    const tsc = join(projectRoot(), 'node_modules', 'typescript', 'bin', 'tsc');
    execFileSync(process.execPath, [tsc, '-p', join(projectRoot(), 'dashboard', 'tsconfig.json')], { stdio: 'pipe' });
  });
});

describe('dashboard: trademarkStats (the overview aggregation)', function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ marks: 300 });
  });
  after(async () => app.close());

  async function graphql<T>(
    query: string,
    variables: Record<string, unknown> = {},
    key = app.keys.full,
  ): Promise<{ status: number; data?: T; errors?: Array<{ extensions: { type: string } }> }> {
    const response = await app.post('/graphql', { query, variables }, key);
    return { status: response.status, ...((await response.json()) as { data?: T; errors?: Array<{ extensions: { type: string } }> }) };
  }

  it('counts marks by office and status and filings per month from the index, with the latest changed marks', async () => {
    interface Stats {
      trademarkStats: {
        object: string;
        total_marks: number;
        by_office_status: Array<{ office_code: string; status_primary: string; count: number }>;
        filings_by_month: Array<{ month: string; count: number }>;
        recent_changes: Array<{ id: string }>;
      };
    }
    const answer = await graphql<Stats>(OPERATIONS.Overview, { months: 24 });
    expect(answer.status, JSON.stringify(answer.errors)).to.equal(200);
    const stats = answer.data!.trademarkStats;
    expect(stats.total_marks).to.equal(300);
    expect(stats.by_office_status.reduce((sum, row) => sum + row.count, 0)).to.equal(300);
    const marks = await app.adapters.store
      .collection<{ _id: string; office_code: string; status: { primary: string }; filing_date: string }>('trademarks')
      .find({});
    const usPending = marks.filter((mark) => mark.office_code === 'US' && mark.status.primary === 'pending').length;
    const usPendingRow = stats.by_office_status.find((row) => row.office_code === 'US' && row.status_primary === 'pending');
    expect(usPendingRow?.count ?? 0).to.equal(usPending);
    const window = monthWindow(new Date(), 24);
    expect(stats.filings_by_month.map((row) => row.month)).to.deep.equal(window);
    const inWindow = marks.filter((mark) => window.includes(mark.filing_date.slice(0, 7))).length;
    expect(stats.filings_by_month.reduce((sum, row) => sum + row.count, 0)).to.equal(inWindow);
    expect(stats.recent_changes).to.have.length(10);
  });

  it('refuses months out of range, and a key without trademarks:read', async () => {
    const tooMany = await graphql('{ trademarkStats(months: 500) { total_marks } }');
    expect(tooMany.errors?.[0]?.extensions.type).to.equal('validation_error');
    const billing = await graphql('{ trademarkStats { total_marks } }', {}, app.keys.billingOnly);
    expect(billing.status).to.equal(403);
  });
});
