/**
 * GET /v1/trademarks/{id}/coverage: where the mark is protected. A Madrid family covers the
 * jurisdictions of its designations; a national mark its own jurisdiction; a regional office's
 * mark (EM, BX) every member state it covers (data/offices.json `covers`). An international
 * registration on its own protects nowhere; it is reported apart as the family's basis.
 */
import type { TrademarkDoc } from '../../domain/records';
import type { RequestContext } from '../context';
import { officeByCode } from '../../domain/offices';
import { jurisdictionName } from '../reference/queries';
import { madridFamily } from './family';
import { requireTrademark } from './load';

export type CoverageRoute = 'national' | 'regional' | 'madrid_designation';

function routeOf(mark: TrademarkDoc, regional: boolean): CoverageRoute {
  if (mark.filing_route === 'madrid') return 'madrid_designation';
  return regional ? 'regional' : 'national';
}

function coverageRows(mark: TrademarkDoc) {
  const office = officeByCode(mark.office_code);
  const covers = office?.covers ?? [];
  const regional = covers.length > 0;
  return (regional ? covers : [mark.jurisdiction_code]).map((code) => ({
    jurisdiction_code: code,
    jurisdiction_name: jurisdictionName(code),
    office_code: mark.office_code,
    route: routeOf(mark, regional),
    trademark_id: mark._id,
    status: mark.status,
    protected: mark.status.primary === 'active',
    filing_date: mark.filing_date,
    designation_date: mark.designation_date,
    registration_date: mark.registration_date,
    expiry_date: mark.expiry_date,
  }));
}

export async function trademarkCoverage(id: string, ctx: RequestContext) {
  const mark = await requireTrademark(id, ctx);
  const family = await madridFamily(mark, ctx);
  const basis = family.find((m) => m.scope_kind === 'international') ?? null;
  const jurisdictions = family
    .filter((m) => m.scope_kind !== 'international')
    .flatMap(coverageRows)
    .sort((a, b) => a.jurisdiction_code.localeCompare(b.jurisdiction_code) || a.office_code.localeCompare(b.office_code));
  return {
    object: 'trademark_coverage',
    trademark_id: mark._id,
    ir_number: mark.ir_number,
    international_registration:
      basis === null
        ? null
        : {
            trademark_id: basis._id,
            status: basis.status,
            international_registration_date: basis.international_registration_date,
            expiry_date: basis.expiry_date,
          },
    jurisdiction_count: new Set(jurisdictions.map((j) => j.jurisdiction_code)).size,
    protected_jurisdiction_count: new Set(jurisdictions.filter((j) => j.protected).map((j) => j.jurisdiction_code)).size,
    jurisdictions,
  };
}
