import { expect } from 'chai';
import { levenshtein } from '../../../domain/suggest';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Collection, DocumentStore, StoredDocument } from '../../../datasources/ports';
import { addDays } from '../../../domain/dates';
import { computeDeadlines } from '../../../domain/deadlines';
import { computeOppositionWindow, oppositionTriggerFor } from '../../../domain/opposition';
import { catalogId } from '../../../domain/ids';
import { deadlineInputOf, maintenanceFilingsOf } from '../../../domain/mark-deadlines';
import { loadRuleCorpus } from '../../../domain/rules';
import type {
  AttorneyDoc,
  EntityDoc,
  FirmDoc,
  OwnerDoc,
  ProceedingDoc,
  StatusPrimary,
  StatusStage,
  TrademarkChangeDoc,
  TrademarkDoc,
  TrademarkEventDoc,
  TrademarkSourceDoc,
} from '../../../domain/records';
import { STATUS_REASONS } from '../../../domain/records';
import { type CatalogBatch, generateCatalog } from '../../../workers/ingest/generator';
import { seedStore } from '../../../workers/ingest/seed';

const dataFile = (name: string): unknown => JSON.parse(readFileSync(join(__dirname, '../../../data', name), 'utf8'));
const offices = dataFile('offices.json') as Array<{ office_code: string; jurisdiction_code: string }>;
const niceTerms = dataFile('nice_terms.json') as Array<{ term: string; class: number }>;
const eventTypes = dataFile('event_types.json') as Array<{ code: string }>;
const vienna = dataFile('vienna_categories.json') as Array<{ divisions: Array<{ code: string }> }>;

const TODAY = '2026-11-01';

interface Catalog {
  trademarks: TrademarkDoc[];
  owners: OwnerDoc[];
  entities: EntityDoc[];
  attorneys: AttorneyDoc[];
  firms: FirmDoc[];
  proceedings: ProceedingDoc[];
  trademark_changes: TrademarkChangeDoc[];
  trademark_sources: TrademarkSourceDoc[];
  trademark_events: TrademarkEventDoc[];
}

function collect(marks: number, seed: number, batchSize?: number): { catalog: Catalog; batches: CatalogBatch[] } {
  const catalog: Catalog = {
    trademarks: [],
    owners: [],
    entities: [],
    attorneys: [],
    firms: [],
    proceedings: [],
    trademark_changes: [],
    trademark_sources: [],
    trademark_events: [],
  };
  const batches: CatalogBatch[] = [];
  for (const batch of generateCatalog({ marks, seed, batchSize })) {
    batches.push(batch);
    (catalog[batch.collection] as StoredDocument[]).push(...batch.docs);
  }
  return { catalog, batches };
}

function digest(catalog: Catalog): string {
  const hash = createHash('sha256');
  for (const [name, docs] of Object.entries(catalog)) hash.update(name).update(JSON.stringify(docs));
  return hash.digest('hex');
}

/** ISO 7064 MOD 97-10 over the whole LEI (letters A=10 … Z=35) must leave 1 (ISO 17442). */
function leiIsValid(lei: string): boolean {
  if (!/^[0-9A-Z]{18}[0-9]{2}$/.test(lei)) return false;
  const digits = [...lei].map((character) => parseInt(character, 36).toString()).join('');
  return BigInt(digits) % 97n === 1n;
}

/** Stage → primary, as the brief for the catalog states it. */
const EXPECTED_PRIMARY: Record<StatusStage, StatusPrimary> = {
  registered: 'active',
  allowed: 'active',
  pending_issuance: 'active',
  pending_cancellation: 'active',
  filed: 'pending',
  examining: 'pending',
  pending_publication: 'pending',
  published: 'pending',
  opposition_period: 'pending',
  pending_opposition: 'pending',
  abandoned: 'inactive',
  withdrawn: 'inactive',
  surrendered: 'inactive',
  refused: 'inactive',
  cancelled: 'inactive',
  invalidated: 'inactive',
  expired: 'inactive',
  unknown: 'unknown',
};

const REASONS_BY_STAGE: Partial<Record<StatusStage, ReadonlyArray<string | null>>> = {
  filed: ['under_examination'],
  examining: ['under_examination'],
  pending_publication: ['awaiting_publication'],
  published: ['in_opposition_period'],
  opposition_period: ['in_opposition_period'],
  pending_opposition: ['opposed'],
  registered: ['registration_in_force', 'renewed'],
  pending_cancellation: ['registration_in_force', 'renewed'],
  abandoned: ['abandoned_no_response'],
  withdrawn: ['withdrawn_by_applicant'],
  surrendered: ['surrendered_by_owner'],
  refused: ['refused_absolute_grounds', 'refused_relative_grounds'],
  cancelled: ['cancelled_non_use', 'cancelled_no_declaration_of_use'],
  invalidated: ['invalidated_by_decision'],
  expired: ['expired_not_renewed'],
  unknown: ['unknown'],
  allowed: [null],
  pending_issuance: [null],
};

/** Offices whose only opposition rules run from the publication of the registration. */
const OPPOSING_REGISTRATIONS = ['JP', 'DE', 'CH'];

const FIFTEEN_OFFICES = ['US', 'EM', 'GB', 'WO', 'CN', 'JP', 'KR', 'CA', 'AU', 'DE', 'FR', 'IN', 'BR', 'MX', 'CH'];

describe('workers/ingest/generator', function () {
  let catalog: Catalog;
  let batches: CatalogBatch[];
  const byId = <T extends StoredDocument>(docs: T[]): Map<string, T> => new Map(docs.map((doc) => [doc._id, doc]));

  before(() => {
    ({ catalog, batches } = collect(2000, 7));
  });

  describe('determinism', () => {
    it('gives identical output for the same marks and seed, in any batch size', () => {
      expect(digest(collect(2000, 7, 250).catalog)).to.equal(digest(catalog));
    });

    it('gives the same logos in any batch size', () => {
      const logos = (of: CatalogBatch[]) => of.flatMap((batch) => (batch.collection === 'trademarks' ? batch.logos : []));
      const again = collect(2000, 7, 250);
      expect(JSON.stringify(logos(again.batches))).to.equal(JSON.stringify(logos(batches)));
      expect(logos(batches).length).to.be.greaterThan(500);
    });

    it('gives different data for another seed', () => {
      const other = collect(2000, 8).catalog;
      expect(other.trademarks.length).to.equal(2000);
      const ids = new Set(catalog.trademarks.map((tm) => tm._id));
      expect(other.trademarks.filter((tm) => ids.has(tm._id)).length).to.be.lessThan(50);
    });

    it('produces exactly the requested number of marks, in batches of about 1,000', () => {
      expect(catalog.trademarks.length).to.equal(2000);
      for (const batch of batches) expect(batch.docs.length).to.be.at.most(1005);
      expect(collect(0, 1).catalog.trademarks).to.have.length(0);
    });
  });

  describe('trademarks', () => {
    it('covers the fifteen main offices with jurisdiction codes from data/offices.json', () => {
      const jurisdiction = new Map(offices.map((office) => [office.office_code, office.jurisdiction_code]));
      const seen = new Set(catalog.trademarks.map((tm) => tm.office_code));
      for (const code of FIFTEEN_OFFICES) expect(seen.has(code), code).to.equal(true);
      for (const tm of catalog.trademarks) expect(tm.jurisdiction_code).to.equal(jurisdiction.get(tm.office_code));
    });

    it('uses office-shaped application numbers, unique per office, with IDs derived from them', () => {
      const formats: Record<string, RegExp> = {
        US: /^(7[4-9]|8[5-8]|9[0789])\d{6}$/,
        EM: /^0[01]\d{7}$/,
        WO: /^\d{6,7}$/,
        GB: /^UK0000\d{7}$/,
        JP: /^(19|20)\d{2}-\d{6}$/,
        KR: /^40-(19|20)\d{2}-\d{7}$/,
        CH: /^\d{5}\/(19|20)\d{2}$/,
        CA: /^\d{7}$/,
        BR: /^\d{9}$/,
      };
      const keys = new Set<string>();
      for (const tm of catalog.trademarks) {
        const format = formats[tm.office_code];
        if (format !== undefined) expect(tm.application_number, tm.office_code).to.match(format);
        if (tm.office_code === 'EM' && tm.filing_date >= '2019-06-01')
          expect(tm.application_number.startsWith('018') || tm.application_number.startsWith('019')).to.equal(true);
        const key = `${tm.office_code}:${tm.application_number}`;
        expect(keys.has(key), key).to.equal(false);
        keys.add(key);
        expect(tm._id).to.equal(catalogId('tm_', tm.office_code, tm.application_number));
      }
    });

    it('builds Madrid families: an IR at WO and designations sharing its IR number', () => {
      const irs = new Map(catalog.trademarks.filter((tm) => tm.office_code === 'WO').map((tm) => [tm.ir_number, tm]));
      expect(irs.size).to.be.greaterThan(20);
      for (const ir of irs.values()) {
        expect(ir).to.include({
          filing_route: 'madrid',
          scope_kind: 'international',
          application_number: ir.ir_number,
          international_registration_date: ir.filing_date,
        });
      }
      const designations = catalog.trademarks.filter((tm) => tm.office_code !== 'WO' && tm.filing_route === 'madrid');
      expect(designations.length).to.be.greaterThan(irs.size);
      for (const designation of designations) {
        const ir = irs.get(designation.ir_number);
        expect(ir, designation.ir_number ?? 'null').to.not.equal(undefined);
        expect(designation.scope_kind).to.equal(designation.office_code === 'EM' ? 'regional' : 'national');
        expect(designation.international_registration_date).to.equal(ir?.filing_date);
        expect(designation.designation_date).to.equal(designation.filing_date);
        expect(designation.mark_text).to.equal(ir?.mark_text);
      }
      for (const tm of catalog.trademarks.filter((mark) => mark.filing_route !== 'madrid')) {
        expect(tm.filing_route).to.equal(tm.office_code === 'EM' ? 'regional' : 'national');
        expect(tm.ir_number).to.equal(null);
      }
    });

    it('keeps dates in order and statuses consistent with stage', () => {
      for (const tm of catalog.trademarks) {
        const where = `${tm._id} ${tm.status.stage}`;
        expect(tm.filing_date >= '1990-01-01' && tm.filing_date < TODAY, where).to.equal(true);
        if (tm.priority_date !== null) expect(tm.priority_date <= tm.filing_date, where).to.equal(true);
        if (tm.publication_date !== null) expect(tm.filing_date <= tm.publication_date && tm.publication_date < TODAY, where).to.equal(true);
        if (tm.registration_date !== null) {
          expect(tm.filing_date <= tm.registration_date && tm.registration_date < TODAY, where).to.equal(true);
          // JP, DE and CH publish the registration for opposition; the others the application.
          if (tm.publication_date !== null)
            expect(
              OPPOSING_REGISTRATIONS.includes(tm.office_code) ? tm.publication_date > tm.registration_date : tm.publication_date <= tm.registration_date,
              where,
            ).to.equal(true);
          expect(tm.expiry_date !== null && tm.expiry_date > tm.registration_date, where).to.equal(true);
          expect(tm.registration_number, where).to.be.a('string');
        }
        if (tm.termination_date !== null) expect(tm.termination_date >= tm.filing_date && tm.termination_date < TODAY, where).to.equal(true);
        expect(tm.status.primary, where).to.equal(EXPECTED_PRIMARY[tm.status.stage]);
        expect(REASONS_BY_STAGE[tm.status.stage], where).to.include(tm.status.reason);
        expect(tm.termination_date !== null, where).to.equal(tm.status.primary === 'inactive');
        const inForce = tm.status.stage === 'registered' || tm.status.stage === 'pending_cancellation';
        expect(tm.renewal_due_date, where).to.equal(inForce ? tm.expiry_date : null);
        if (tm.status.stage === 'pending_opposition') expect(tm.status.challenge_states).to.deep.equal(['opposition_pending']);
        if (tm.status.stage === 'pending_cancellation')
          expect(tm.status.challenge_states)
            .to.have.length(1)
            .and.satisfy((states: string[]) => ['cancellation_pending', 'invalidity_pending'].includes(states[0]!));
        if (tm.status.challenge_states.includes('appeal_pending')) expect(tm.status.stage).to.equal('examining');
        if (tm.status.stage === 'registered' && tm.status.primary === 'active')
          expect(tm.expiry_date !== null && tm.expiry_date > '2026-04-30', where).to.equal(true);
        if (tm.status.reason !== null) expect(STATUS_REASONS).to.include(tm.status.reason);
      }
      const stages = new Set(catalog.trademarks.map((tm) => tm.status.stage));
      for (const stage of ['filed', 'examining', 'opposition_period', 'registered', 'abandoned', 'refused', 'expired', 'allowed'] as const)
        expect(stages.has(stage), stage).to.equal(true);
    });

    it("ends each registration's term where data/rules.json puts its next renewal (CA's 15-year terms before 2019, MX's from filing before 2018)", () => {
      // The deadline calculator (tested on its own against the corpus's worked examples) lists,
      // as of the day before the term ends, a renewal due that day, rolled forward at most over a
      // weekend and holidays.
      const corpus = loadRuleCorpus(dataFile('rules.json'));
      let checked = 0;
      const reformed = new Set<string>();
      for (const tm of catalog.trademarks) {
        if (tm.expiry_date === null || (tm.status.stage !== 'registered' && tm.status.stage !== 'pending_cancellation')) continue;
        const computation = computeDeadlines(corpus, deadlineInputOf(tm), {
          asOfDate: addDays(tm.expiry_date, -1),
          horizonYears: 1,
          includeOptional: false,
          includeMissed: false,
        });
        const dues = computation.deadlines.filter((d) => d.type === 'renewal').map((d) => d.due_date);
        expect(
          dues.some((due) => due >= tm.expiry_date! && due <= addDays(tm.expiry_date!, 10)),
          `${tm._id} filed ${tm.filing_date}, registered ${tm.registration_date}, expiry ${tm.expiry_date}: renewals due ${dues.join(', ')}`,
        ).to.equal(true);
        checked++;
        if (
          tm.filing_route !== 'madrid' &&
          ((tm.jurisdiction_code === 'CA' && tm.registration_date! < '2019-06-17') || (tm.jurisdiction_code === 'MX' && tm.registration_date! < '2018-08-10'))
        )
          reformed.add(tm.jurisdiction_code);
      }
      expect(checked).to.be.greaterThan(500);
      expect([...reformed].sort()).to.deep.equal(['CA', 'MX']);
    });

    it('keeps in force no US or MX registration whose declaration of use (data/rules.json) is missed: it was filed in its window, or the registration was cancelled', () => {
      // The deadline calculator, given each mark's declarations as a client reads them from its
      // history, as of the generator's today: no declaration of use past its grace period but
      // those whose grace ended within the 200 days an office may take to record the cancellation.
      const corpus = loadRuleCorpus(dataFile('rules.json'));
      const eventsOf = new Map<string, TrademarkEventDoc[]>();
      for (const event of catalog.trademark_events) eventsOf.set(event.trademark_id, [...(eventsOf.get(event.trademark_id) ?? []), event]);
      const checked = new Map<string, number>();
      for (const tm of catalog.trademarks) {
        if (!['US', 'MX'].includes(tm.jurisdiction_code) || !['registered', 'pending_cancellation'].includes(tm.status.stage)) continue;
        const filings = maintenanceFilingsOf(eventsOf.get(tm._id) ?? []);
        const computation = computeDeadlines(corpus, deadlineInputOf(tm, null, filings), {
          asOfDate: '2026-11-01',
          horizonYears: 1,
          includeOptional: false,
          includeMissed: true,
        });
        const missed = computation.deadlines.filter((d) => d.type === 'declaration_of_use' && d.status === 'missed' && d.grace_expiry < '2026-04-15');
        expect(missed, `${tm._id} registered ${tm.registration_date}: ${missed.map((d) => d.due_date).join(', ')}`).to.deep.equal([]);
        if (filings.some((filing) => filing.type === 'declaration_of_use')) checked.set(tm.jurisdiction_code, (checked.get(tm.jurisdiction_code) ?? 0) + 1);
      }
      // Both offices' declarations are there to be checked.
      expect([...checked.keys()].sort()).to.deep.equal(['MX', 'US']);
    });

    it('holds no JP, DE or CH application in an opposition stage: their oppositions run from the published registration (data/rules.json)', () => {
      const corpus = loadRuleCorpus(dataFile('rules.json'));
      for (const office of OPPOSING_REGISTRATIONS) {
        const triggers = new Set(corpus.opposition_rules.filter((rule) => rule.office_code === office).map((rule) => rule.trigger_event));
        expect([...triggers], office).to.deep.equal(['registration_publication']);
      }
      const marks = catalog.trademarks.filter((tm) => OPPOSING_REGISTRATIONS.includes(tm.office_code));
      expect(marks.length).to.be.greaterThan(50);
      const opposition = marks.filter((tm) => ['published', 'opposition_period', 'pending_opposition'].includes(tm.status.stage));
      expect(opposition.map((tm) => `${tm._id} ${tm.office_code} ${tm.status.stage}`)).to.deep.equal([]);
      const published = marks.filter((tm) => tm.registration_date !== null && tm.publication_date !== null);
      expect(published.length).to.be.greaterThan(20);
    });

    it('files JP, DE and CH oppositions against the published registration, on a day its window (data/rules.json) is open', () => {
      const corpus = loadRuleCorpus(dataFile('rules.json'));
      const marks = new Map(catalog.trademarks.map((tm) => [tm._id, tm]));
      const oppositions = catalog.proceedings.filter((p) => p.proceeding_type === 'opposition' && OPPOSING_REGISTRATIONS.includes(p.office_code));
      expect(oppositions.length).to.be.greaterThan(0);
      for (const opposition of oppositions) {
        const tm = marks.get(opposition.trademark_ids[0] as string) as TrademarkDoc;
        expect(tm.registration_date, tm._id).to.not.equal(null);
        expect(opposition.filed_date > (tm.registration_date as string), tm._id).to.equal(true);
        expect(tm.filing_route, tm._id).to.equal('national');
        const trigger = oppositionTriggerFor(corpus, { ...tm, filing_route: 'domestic' });
        expect(trigger.trigger_event).to.equal('registration_publication');
        expect(trigger.estimated, tm._id).to.equal(false);
        const window = computeOppositionWindow(corpus, {
          ...trigger,
          office_code: tm.office_code,
          publication_date: trigger.publication_date as string,
          as_of_date: opposition.filed_date,
        });
        expect(window.status, `${tm._id} ${tm.office_code} published ${tm.publication_date}, opposed ${opposition.filed_date}`).to.equal('open');
        // Pending, it leaves the mark registered with the challenge; upheld, the registration is revoked.
        if (opposition.status === 'pending') expect(tm.status.challenge_states).to.deep.equal(['opposition_pending']);
        if (opposition.status === 'decided_granted') expect(tm.status.stage).to.equal('invalidated');
      }
    });

    it('leaves no mark outside the US in an opposition stage once its period (data/rules.json) closed before the generated today', () => {
      const corpus = loadRuleCorpus(dataFile('rules.json'));
      const inOpposition = catalog.trademarks.filter(
        (tm) => tm.office_code !== 'US' && tm.publication_date !== null && ['published', 'opposition_period'].includes(tm.status.stage),
      );
      expect(inOpposition.length).to.be.greaterThan(0);
      const lastDay = addDays(TODAY, -1);
      const closed = inOpposition.filter((tm) => {
        const trigger = oppositionTriggerFor(corpus, { ...tm, filing_route: tm.filing_route === 'madrid' ? 'madrid_designation' : 'domestic' });
        if (trigger.publication_date === null) return false;
        const window = computeOppositionWindow(corpus, {
          ...trigger,
          office_code: tm.office_code,
          publication_date: trigger.publication_date,
          as_of_date: lastDay,
        });
        return window.status === 'closed';
      });
      expect(closed.map((tm) => `${tm._id} ${tm.office_code} published ${tm.publication_date}`)).to.deep.equal([]);
    });

    it('asks for revocation for non-use only after five years without use in the EU states, the UK, CH, BR and IN, three elsewhere', () => {
      // Art. 58(1)(a) EUTMR and the laws under Directive 2015/2436 art. 16 (DE, FR, ES), UK s.46(1)(a) TMA 1994,
      // CH art. 12 MSchG, BR art. 143 LPI, IN s.47 (five years and three months); US 15 U.S.C. §1127, JP art. 50, CN art. 49, … three.
      const fiveYears = new Set(['EM', 'GB', 'DE', 'FR', 'ES', 'CH', 'BR', 'IN']);
      const marks = new Map(catalog.trademarks.map((tm) => [tm._id, tm]));
      const revocations = catalog.proceedings.filter((p) => p.description === 'Revocation for non-use');
      expect(revocations.length).to.be.greaterThan(0);
      for (const revocation of revocations) {
        const tm = marks.get(revocation.trademark_ids[0] as string) as TrademarkDoc;
        const years = fiveYears.has(tm.office_code) ? 5 : 3;
        const earliest = `${Number((tm.registration_date as string).slice(0, 4)) + years}${(tm.registration_date as string).slice(4)}`;
        expect(
          revocation.filed_date >= earliest,
          `${revocation._id} ${tm.office_code} registered ${tm.registration_date}, filed ${revocation.filed_date}`,
        ).to.equal(true);
      }
    });

    it('classifies each filing under the Nice edition in force on its filing date, without classes 43-45 before NCL 8 (2002)', () => {
      // WIPO: NCL 6 from 1992, 7 from 1997, 8 from 2002 (43-45 split from 42), 9 from 2007, 10 from 2012 with yearly versions, 11 from 2017, 12 from 2023, 13 from 2026.
      const expected = (date: string): string | null => {
        const year = Number(date.slice(0, 4));
        if (year >= 2012) return `${year >= 2026 ? 13 : year >= 2023 ? 12 : year >= 2017 ? 11 : 10}-${year}`;
        return year >= 2007 ? '9-2007' : year >= 2002 ? '8-2002' : year >= 1997 ? '7-1997' : year >= 1992 ? '6-1992' : null;
      };
      let before2002 = 0;
      for (const tm of catalog.trademarks) {
        for (const c of tm.classifications) expect(c.nice_edition, `${tm._id} filed ${tm.filing_date}`).to.equal(expected(tm.filing_date));
        if (tm.filing_date < '2002-01-01' && tm.filing_route !== 'madrid') {
          before2002++;
          expect(
            tm.classifications.every((c) => c.nice_class <= 42),
            `${tm._id} filed ${tm.filing_date}`,
          ).to.equal(true);
        }
      }
      expect(before2002).to.be.greaterThan(50);
    });

    it('names representatives who may act before the office: before EUIPO admitted in the EEA (Art. 120 EUTMR), before a national office in its country where the catalog has attorneys there', () => {
      // The EU states, Iceland, Liechtenstein and Norway.
      const EEA = new Set('AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO'.split(' '));
      const admitted = new Map(catalog.attorneys.map((attorney) => [attorney._id, new Set(attorney.bar_admissions)]));
      const countries = new Set(catalog.attorneys.flatMap((attorney) => attorney.bar_admissions));
      const offices = ['EM', 'GB', 'JP', 'CN', 'KR', 'BR', 'MX', 'IN'].filter((office) => office === 'EM' || countries.has(office));
      expect(offices.length).to.be.greaterThan(3);
      const outside: string[] = [];
      for (const tm of catalog.trademarks.filter((mark) => mark.filing_route !== 'madrid' && offices.includes(mark.office_code))) {
        for (const id of tm.attorney_ids) {
          const bars = [...(admitted.get(id) ?? [])];
          const may = tm.office_code === 'EM' ? bars.some((bar) => EEA.has(bar)) : bars.includes(tm.office_code);
          if (!may) outside.push(`${tm._id} ${tm.office_code} ${id} ${bars.join(',')}`);
        }
      }
      expect(outside).to.deep.equal([]);
    });

    it('spreads filing dates over 1990 to 2026 with recent years more frequent', () => {
      const perDecade = (from: string, to: string): number => catalog.trademarks.filter((tm) => tm.filing_date >= from && tm.filing_date < to).length;
      expect(perDecade('1990-01-01', '1995-01-01')).to.be.greaterThan(20);
      expect(perDecade('2020-01-01', '2025-01-01')).to.be.greaterThan(perDecade('1995-01-01', '2000-01-01') * 1.5);
      expect(catalog.trademarks.some((tm) => tm.filing_date >= '2026-01-01')).to.equal(true);
    });

    it('classifies with 1–4 Nice classes whose texts are official terms of that class', () => {
      const termsByClass = new Map<number, Set<string>>();
      for (const entry of niceTerms) termsByClass.set(entry.class, (termsByClass.get(entry.class) ?? new Set()).add(entry.term));
      for (const tm of catalog.trademarks) {
        expect(tm.classifications.length).to.be.within(1, 4);
        const classes = tm.classifications.map((c) => c.nice_class);
        expect(new Set(classes).size).to.equal(classes.length);
        for (const item of tm.classifications) {
          expect(item.nice_class).to.be.within(1, 45);
          const terms = item.goods_services_text.split('; ');
          expect(terms.length).to.be.at.least(2);
          for (const term of terms) expect(termsByClass.get(item.nice_class)?.has(term), `${item.nice_class}: ${term}`).to.equal(true);
        }
        const goods = classes.some((c) => c <= 34);
        const services = classes.some((c) => c >= 35);
        expect(tm.right_kind).to.equal(goods && services ? 'trademark_and_service_mark' : goods ? 'trademark' : 'service_mark');
      }
    });

    it('contains near-duplicate mark texts (Levenshtein distance 1) for similarity search', () => {
      const texts = [...new Set(catalog.trademarks.filter((tm) => tm.mark_feature_type !== 'figurative').map((tm) => tm.mark_text))];
      let pairs = 0;
      for (let i = 0; i < texts.length; i++) {
        for (let j = i + 1; j < texts.length; j++) {
          if (Math.abs(texts[i]!.length - texts[j]!.length) <= 1 && levenshtein(texts[i]!, texts[j]!) === 1) pairs++;
        }
      }
      expect(pairs).to.be.greaterThan(30);
    });

    it('gives figurative marks a device description, Vienna codes and media', () => {
      const divisions = new Set(vienna.flatMap((category) => category.divisions.map((division) => division.code)));
      const figurative = catalog.trademarks.filter((tm) => tm.mark_feature_type === 'figurative');
      expect(figurative.length).to.be.greaterThan(50);
      for (const tm of figurative) expect(tm.mark_text).to.match(/^DEVICE OF /);
      for (const tm of catalog.trademarks) {
        expect(tm.mark_text.length).to.be.greaterThan(0);
        for (const code of tm.vienna_codes) expect(divisions.has(code), code).to.equal(true);
        if (tm.mark_feature_type === 'word') expect(tm.media).to.deep.equal([]);
        if (tm.mark_feature_type === 'figurative' || tm.mark_feature_type === 'combined') {
          expect(tm.media).to.have.length(1);
          expect(tm.media[0]).to.include({ kind: 'image', mime_type: 'image/png', url: `/v1/media/${tm.media[0]!.id}` });
          expect(tm.media[0]!.id).to.match(/^med_[0-9a-z]{20}$/);
        }
      }
    });
  });

  describe('parties', () => {
    it('references only existing owners, attorneys, firms and entities', () => {
      const owners = byId(catalog.owners);
      const attorneys = byId(catalog.attorneys);
      const firms = byId(catalog.firms);
      const entities = byId(catalog.entities);
      for (const tm of catalog.trademarks) {
        expect(tm.owner_ids.length).to.be.at.least(1);
        for (const id of tm.owner_ids) expect((owners.get(id)?.created_at ?? '9999') < tm.created_at, id).to.equal(true);
        for (const id of tm.attorney_ids) expect(attorneys.has(id), id).to.equal(true);
      }
      for (const attorney of catalog.attorneys) if (attorney.firm_id !== null) expect(firms.has(attorney.firm_id)).to.equal(true);
      for (const owner of catalog.owners) {
        const entity = entities.get(owner.entity_id);
        expect(entity?.member_owner_ids).to.include(owner._id);
      }
      for (const entity of catalog.entities) for (const id of entity.member_owner_ids) expect(owners.get(id)?.entity_id).to.equal(entity._id);
    });

    it('stores corporate-family relationships on both sides', () => {
      const owners = byId(catalog.owners);
      let rows = 0;
      for (const owner of catalog.owners) {
        for (const row of owner.relationships) {
          rows++;
          expect(['IS_DIRECTLY_CONSOLIDATED_BY', 'IS_ULTIMATELY_CONSOLIDATED_BY']).to.include(row.relationship_type);
          expect(row).to.include({ relationship_status: 'ACTIVE', source: 'gleif_level2', period_end: null });
          const related = owners.get(row.related_owner_id);
          const mirror = related?.relationships.find((other) => other.related_owner_id === owner._id && other.relationship_type === row.relationship_type);
          expect(mirror, `${owner._id} → ${row.related_owner_id}`).to.not.equal(undefined);
          expect(mirror?.direction).to.equal(row.direction === 'parent' ? 'child' : 'parent');
          expect(mirror?.ownership_pct).to.equal(row.ownership_pct);
          expect(related?.entity_id).to.equal(owner.entity_id);
        }
      }
      expect(rows).to.be.greaterThan(10);
    });

    it('has corporations, individuals and partnerships, valid LEIs and some listed companies', () => {
      const types = new Set(catalog.owners.map((owner) => owner.entity_type));
      for (const type of ['corporation', 'individual', 'partnership']) expect(types.has(type as OwnerDoc['entity_type'])).to.equal(true);
      const companies = catalog.owners.flatMap((owner) => owner.companies);
      const leis = companies.map((company) => company.lei).filter((lei): lei is string => lei !== null);
      expect(leis.length).to.be.greaterThan(10);
      for (const lei of leis) expect(leiIsValid(lei), lei).to.equal(true);
      expect(companies.some((company) => company.ticker !== null && company.exchange !== null)).to.equal(true);
    });

    it('groups attorneys in firms of 1 to 200 and keeps some solo attorneys', () => {
      const sizes = new Map<string, number>();
      for (const attorney of catalog.attorneys) if (attorney.firm_id !== null) sizes.set(attorney.firm_id, (sizes.get(attorney.firm_id) ?? 0) + 1);
      expect(sizes.size).to.equal(catalog.firms.length);
      for (const size of sizes.values()) expect(size).to.be.within(1, 200);
      expect(catalog.attorneys.some((attorney) => attorney.firm_id === null)).to.equal(true);
    });
  });

  describe('history', () => {
    it('has one change row per version: created first, then updates with old and new values', () => {
      const changes = new Map<string, TrademarkChangeDoc[]>();
      for (const change of catalog.trademark_changes) changes.set(change.trademark_id, [...(changes.get(change.trademark_id) ?? []), change]);
      for (const tm of catalog.trademarks) {
        const rows = changes.get(tm._id) ?? [];
        expect(rows.length, tm._id).to.equal(tm.version);
        rows.forEach((row, i) => {
          expect(row.version).to.equal(i + 1);
          expect(row._id).to.equal(`${tm._id}:v${i + 1}`);
          if (i === 0) {
            expect(row).to.include({ change_type: 'created', old_values: null, created_at: tm.created_at });
          } else {
            expect(['updated', 'corrected']).to.include(row.change_type);
            expect(Object.keys(row.old_values ?? {})).to.deep.equal(row.changed_fields);
            expect(row.created_at > rows[i - 1]!.created_at).to.equal(true);
          }
          expect(Object.keys(row.new_values)).to.include.members(row.changed_fields);
        });
        expect(rows[rows.length - 1]!.created_at).to.equal(tm.updated_at);
        expect(tm.source_updated_at <= tm.updated_at && tm.updated_at < TODAY).to.equal(true);
        const last = rows[rows.length - 1]!.new_values;
        if ('status_stage' in last) expect(last.status_stage).to.equal(tm.status.stage);
      }
      // Renewals move the expiry (and renewal due date) without a stage change.
      expect(catalog.trademark_changes.some((row) => row.changed_fields.includes('expiry_date') && !row.changed_fields.includes('status_stage'))).to.equal(
        true,
      );
      expect(catalog.trademark_changes.some((row) => row.change_type === 'corrected')).to.equal(true);
      // The contract's names: child changes by entity type (owners, events), never the storage names.
      expect(catalog.trademark_changes.some((row) => row.version > 1 && row.changed_fields.includes('owners'))).to.equal(true);
      expect(catalog.trademark_changes.some((row) => row.version > 1 && row.changed_fields.includes('events'))).to.equal(true);
      expect(catalog.trademark_changes.some((row) => row.changed_fields.some((field) => ['owner_ids', 'attorney_ids', 'mark_text'].includes(field)))).to.equal(
        false,
      );
    });

    it('lists each stored event once, under events, on the first version whose data date reaches it', () => {
      const stored = new Map<string, string[]>();
      for (const event of catalog.trademark_events) {
        stored.set(event.trademark_id, [...(stored.get(event.trademark_id) ?? []), `${event.event_date}|${event.event_type}|${event.office_event_code}`]);
      }
      const listed = new Map<string, string[]>();
      let previous: TrademarkChangeDoc | null = null;
      for (const row of catalog.trademark_changes) {
        const sameMark = previous?.trademark_id === row.trademark_id;
        const events = (row.new_values.events ?? []) as Array<{ event_type: string; event_date: string; office_event_code: string | null }>;
        expect(row.changed_fields.includes('events'), row._id).to.equal(events.length > 0);
        if (events.length > 0 && row.version > 1) expect(row.old_values?.events).to.deep.equal([]);
        for (const event of events) {
          expect(event.event_date <= row.source_data_date!, row._id).to.equal(true);
          if (sameMark && previous!.source_data_date !== null) expect(event.event_date > previous!.source_data_date, row._id).to.equal(true);
        }
        listed.set(row.trademark_id, [...(listed.get(row.trademark_id) ?? []), ...events.map((e) => `${e.event_date}|${e.event_type}|${e.office_event_code}`)]);
        previous = row;
      }
      for (const [id, keys] of listed) {
        const all = stored.get(id) ?? [];
        // What a version lists is stored; events after the last version are in no change row.
        expect(all.slice(0, keys.length), id).to.deep.equal(keys);
      }
      expect([...listed.values()].some((keys) => keys.length > 0)).to.equal(true);
    });

    it('records one or two source observations with SHA-256 payload hashes', () => {
      const perMark = new Map<string, number>();
      for (const source of catalog.trademark_sources) {
        perMark.set(source.trademark_id, (perMark.get(source.trademark_id) ?? 0) + 1);
        expect(source.payload_hash).to.match(/^sha256:[0-9a-f]{64}$/);
        expect(['xml_st96', 'xml_dtd', 'json']).to.include(source.source_format);
        expect(source._id).to.equal(`${source.trademark_id}:${source.observed_at}`);
      }
      for (const tm of catalog.trademarks) expect(perMark.get(tm._id)).to.be.within(1, 2);
    });

    it("uses event codes from data/event_types.json, dated within the mark's life", () => {
      const codes = new Set(eventTypes.map((type) => type.code));
      const marks = byId(catalog.trademarks);
      for (const event of catalog.trademark_events) {
        expect(codes.has(event.event_type), event.event_type).to.equal(true);
        const tm = marks.get(event.trademark_id);
        expect(tm, event.trademark_id).to.not.equal(undefined);
        expect(event.event_date >= (tm?.filing_date ?? '') && event.event_date < TODAY).to.equal(true);
      }
      const registeredEvents = new Set(catalog.trademark_events.filter((event) => event.event_type === 'registered').map((event) => event.trademark_id));
      for (const tm of catalog.trademarks) if (tm.registration_date !== null) expect(registeredEvents.has(tm._id), tm._id).to.equal(true);
    });
  });

  describe('proceedings', () => {
    it("exist for about 3 % of marks, match proceeding_count and contest only the mark's classes", () => {
      const marks = byId(catalog.trademarks);
      const owners = byId(catalog.owners);
      const counted = new Map<string, number>();
      for (const proceeding of catalog.proceedings) {
        expect(proceeding.trademark_ids).to.have.length(1);
        const tm = marks.get(proceeding.trademark_ids[0]!);
        expect(tm).to.not.equal(undefined);
        counted.set(proceeding.trademark_ids[0]!, (counted.get(proceeding.trademark_ids[0]!) ?? 0) + 1);
        const classes = tm?.classifications.map((c) => c.nice_class) ?? [];
        expect(classes).to.include.members(proceeding.contested_classes);
        expect(proceeding.contested_classes.length).to.be.at.least(1);
        for (const party of proceeding.parties) expect(owners.get(party.owner_id)?.name).to.equal(party.name);
        if (proceeding.decision_date !== null) expect(proceeding.decision_date > proceeding.filed_date).to.equal(true);
        expect(proceeding._id).to.equal(catalogId('prc_', proceeding.office_code, proceeding.proceeding_number));
      }
      for (const tm of catalog.trademarks) expect(counted.get(tm._id) ?? 0).to.equal(tm.proceeding_count);
      const share = counted.size / catalog.trademarks.length;
      expect(share).to.be.within(0.015, 0.06);
      const types = new Set(catalog.proceedings.map((p) => p.proceeding_type));
      expect(types.has('opposition') && types.has('cancellation')).to.equal(true);
      for (const tm of catalog.trademarks.filter((mark) => mark.status.stage === 'pending_opposition')) {
        expect(
          catalog.proceedings.some((p) => p.trademark_ids[0] === tm._id && p.proceeding_type === 'opposition' && ['pending', 'suspended'].includes(p.status)),
        ).to.equal(true);
      }
    });
  });

  describe('seedStore', () => {
    let directory: string;
    let store: DocumentStore | null = null;

    before(() => {
      directory = mkdtempSync(join(tmpdir(), 'marque-seed-'));
    });

    after(async () => {
      await store?.close();
      rmSync(directory, { recursive: true, force: true });
    });

    it('writes every collection through the embedded store and reports progress', async () => {
      const { createEmbeddedDocumentStore } = await import('../../../datasources/embedded/document-store');
      store = createEmbeddedDocumentStore({ path: join(directory, 'seed.db') });
      const progress: Array<[number, number]> = [];
      const summary = await seedStore(store, { marks: 300, seed: 3, onProgress: (done, total) => progress.push([done, total]) });
      expect(progress[progress.length - 1]).to.deep.equal([300, 300]);
      expect(summary.counts.trademarks).to.equal(300);
      for (const [name, count] of Object.entries(summary.counts)) {
        const collection: Collection<StoredDocument> = store.collection(name);
        expect(await collection.countDocuments({}), name).to.equal(count);
      }
      const { catalog: expected } = collect(300, 3);
      expect(summary.counts.trademark_events).to.equal(expected.trademark_events.length);
      const first = await store.collection<TrademarkDoc>('trademarks').findOne({ _id: expected.trademarks[0]!._id });
      expect(first).to.deep.equal(expected.trademarks[0]);
    });
  });

  describe('logos', () => {
    const plans = () => batches.flatMap((batch) => (batch.collection === 'trademarks' ? batch.logos : []));

    it('plans one logo per image a mark links, under the ID of the link, and none for sound or motion marks', () => {
      const byMedia = new Map(plans().map((plan) => [plan.mediaId, plan]));
      expect(byMedia.size).to.equal(plans().length);
      let links = 0;
      for (const tm of catalog.trademarks) {
        if (tm.mark_feature_type === 'sound' || tm.mark_feature_type === 'motion') expect(tm.media).to.deep.equal([]);
        for (const link of tm.media) {
          expect(byMedia.get(link.id)?.trademarkId).to.equal(tm._id);
          expect(byMedia.get(link.id)?.svg).to.match(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="\d+" height="\d+"/);
          links++;
        }
      }
      expect(links).to.equal(plans().length);
    });

    it('draws a combined mark with its words, and a Madrid family with one drawing', () => {
      const marks = byId(catalog.trademarks);
      const combined = plans().find((plan) => marks.get(plan.trademarkId)?.mark_feature_type === 'combined' && !plan.derivedFrom)!;
      const text = marks.get(combined.trademarkId)!.mark_text.replace(/&/g, '&amp;');
      expect(combined.svg).to.contain(`>${text}</text>`);
      const byIr = new Map<string, Set<string>>();
      for (const plan of plans()) {
        const ir = marks.get(plan.trademarkId)!.ir_number;
        if (ir !== null) byIr.set(ir, (byIr.get(ir) ?? new Set()).add(plan.svg));
      }
      expect([...byIr.values()].filter((drawings) => drawings.size > 1)).to.deep.equal([]);
    });

    it('gives each original logo its own drawing: no two share their shapes, whatever their words and colours', () => {
      // The drawing: the SVG without its words and with every colour the same. Colour marks are
      // left out: a colour mark's swatch is its colours.
      const drawing = (svg: string): string => svg.replace(/<text[^>]*>.*?<\/text>/g, '').replace(/#[0-9a-f]{6}/g, '#');
      const marks = byId(catalog.trademarks);
      const drawn = plans().filter((plan) => plan.derivedFrom === null && marks.get(plan.trademarkId)!.mark_feature_type !== 'colour');
      const originals = new Set(drawn.map((plan) => plan.svg));
      expect(originals.size).to.be.greaterThan(500);
      expect(new Set([...originals].map(drawing)).size).to.equal(originals.size);
    });

    it("makes some logos near-duplicates of an earlier mark's, naming it and what was changed", () => {
      const seen = new Map<string, { trademarkId: string; svg: string }>();
      let variants = 0;
      for (const plan of plans()) {
        if (plan.derivedFrom !== null && !seen.has(plan.mediaId)) {
          const origin = seen.get(plan.derivedFrom.media_id);
          expect(origin, plan.mediaId).not.to.equal(undefined);
          expect(origin!.trademarkId).to.equal(plan.derivedFrom.trademark_id);
          expect(plan.svg).not.to.equal(origin!.svg);
          expect(plan.derivedFrom.transforms.length).to.be.within(1, 3);
          variants++;
        }
        seen.set(plan.mediaId, plan);
      }
      expect(variants / plans().length).to.be.within(0.05, 0.2);
    });
  });
});
