/**
 * Trademark records, one filing family at a time: a national (or EU) filing, or a Madrid
 * international registration with its designations. Each mark's lifecycle is simulated, then
 * turned into the record, its change history, sources, events and proceedings.
 */
import { catalogId, representationMediaId } from '../../../domain/ids';
import type {
  MarkFeatureType,
  MarkLegalCategory,
  MediaReference,
  OwnerDoc,
  OwnerHistoryEntry,
  ProceedingDoc,
  RightKind,
  TrademarkChangeDoc,
  TrademarkDoc,
  TrademarkEventDoc,
  TrademarkSourceDoc,
} from '../../../domain/records';
import { classesInForce, classification, pickClasses } from './classification';
import { addMonths, isoDate, startOfYear, TODAY } from './dates';
import { buildHistory, type TrackedValues } from './history';
import { PRIMARY_BY_STAGE } from '../../../domain/trademark-status';
import { LAST_DAY, type LifecycleHooks, type MarkKind, simulateLifecycle, type Step } from './lifecycle';
import { LogoDesigner, type LogoPlan } from './logos';
import { COMBINED_MARK_VIENNA, DEVICES, markText, nearDuplicate } from './names';
import { designatableOffices, NumberAllocator, OFFICE_BY_CODE, OFFICE_TABLE, type OfficeProfile } from './offices';
import type { PartyCatalog } from './parties';
import { buildProceeding, proceedingNumber } from './proceedings';
import { itemAt, mix32, Random, WeightedTable } from './random';

export interface MarkBundle {
  trademarks: TrademarkDoc[];
  changes: TrademarkChangeDoc[];
  sources: TrademarkSourceDoc[];
  events: TrademarkEventDoc[];
  proceedings: ProceedingDoc[];
  /** The logo of each mark whose record links an image (`media`), for the seed to render and store. */
  logos: LogoPlan[];
}

export function emptyBundle(): MarkBundle {
  return { trademarks: [], changes: [], sources: [], events: [], proceedings: [], logos: [] };
}

const FIRST_YEAR = 1990;
const LAST_YEAR = 2026;
/** Filings grow about 8.5 % a year; the current year is only ten months old. */
const FILING_YEARS = new WeightedTable(
  Array.from({ length: LAST_YEAR - FIRST_YEAR + 1 }, (_, i) => ({
    value: FIRST_YEAR + i,
    weight: Math.pow(1.085, i) * (FIRST_YEAR + i === LAST_YEAR ? (TODAY - startOfYear(LAST_YEAR)) / 365 : 1),
  })),
);

const FEATURE_TYPES = new WeightedTable<MarkFeatureType>([
  { value: 'word', weight: 62 },
  { value: 'combined', weight: 22 },
  { value: 'figurative', weight: 10 },
  { value: 'three_dimensional', weight: 2 },
  { value: 'colour', weight: 1 },
  { value: 'sound', weight: 0.6 },
  { value: 'position', weight: 0.4 },
  { value: 'pattern', weight: 0.4 },
  { value: 'motion', weight: 0.2 },
  { value: 'hologram', weight: 0.1 },
  { value: 'other', weight: 0.3 },
]);

const LEGAL_CATEGORIES = new WeightedTable<MarkLegalCategory>([
  { value: 'individual', weight: 97 },
  { value: 'collective', weight: 2 },
  { value: 'certification', weight: 1 },
]);

/**
 * The marks whose record links a representation: an image the seed renders (logos.ts) and stores,
 * so every link answers. Sound and motion marks link none: the generator makes no audio or video.
 */
const MEDIA_BY_FEATURE: Partial<Record<MarkFeatureType, Pick<MediaReference, 'kind' | 'mime_type'>>> = {
  figurative: { kind: 'image', mime_type: 'image/png' },
  combined: { kind: 'image', mime_type: 'image/png' },
  three_dimensional: { kind: 'image', mime_type: 'image/png' },
  colour: { kind: 'image', mime_type: 'image/png' },
  position: { kind: 'image', mime_type: 'image/png' },
  pattern: { kind: 'image', mime_type: 'image/png' },
  hologram: { kind: 'image', mime_type: 'image/png' },
};

/** Owner countries whose holders can use the Madrid system, and their office of origin. */
const NON_MADRID_COUNTRIES = new Set(['TW', 'HK']);
const EU_COUNTRIES = new Set(['DE', 'FR', 'IT', 'ES', 'NL', 'SE', 'BE', 'AT', 'DK', 'IE']);

function rightKind(classes: readonly number[]): RightKind {
  const goods = classes.some((nice) => nice <= 34);
  const services = classes.some((nice) => nice >= 35);
  return goods && services ? 'trademark_and_service_mark' : services ? 'service_mark' : 'trademark';
}

interface MarkDesign {
  text: string;
  featureType: MarkFeatureType;
  viennaCodes: string[];
  /** Whether this text is worth remembering as a target of later near-duplicates. */
  wordLike: boolean;
}

interface RecentMark {
  text: string;
  ownerIndex: number;
  classes: number[];
}

const RECENT_CAPACITY = 4096;

/** Everything one mark needs that its Madrid family shares. */
interface FamilyShared {
  design: MarkDesign;
  ownerIndexes: number[];
  classes: number[];
  legalCategory: MarkLegalCategory;
  priorityDay: number | null;
  renewals: boolean[];
  conflictOwnerIndex: number | null;
  irNumber: string | null;
  irDay: number | null;
}

/** The first owners as applicants, then each owner an assignment brought in, dated by its step. */
function ownerHistory(steps: readonly Step[], owners: readonly OwnerDoc[]): OwnerHistoryEntry[] {
  const entries: OwnerHistoryEntry[] = [];
  let previous: readonly number[] | null = null;
  for (const step of steps) {
    const current = step.state.ownerIndexes;
    if (current === previous || (previous !== null && current.length === previous.length && current.every((index, i) => index === previous?.[i]))) continue;
    const assigned = previous !== null;
    for (const index of current) {
      const owner = owners[index]!;
      entries.push({
        owner_id: owner._id,
        name: owner.name,
        role: assigned ? 'assignee' : 'applicant',
        source: assigned ? 'assignment' : 'office_record',
        office_party_type: null,
        recorded_date: assigned ? isoDate(step.day) : null,
        reference: null,
        conveyance: null,
      });
    }
    previous = current;
  }
  return entries;
}

export class MarkGenerator {
  private readonly random: Random;
  private readonly allocator = new NumberAllocator();
  private readonly recent: RecentMark[] = [];
  private readonly ownerIndexById: ReadonlyMap<string, number>;
  private readonly madridOwnerCountries: string[];
  /** Logos draw from their own stream, so the records are the same as without them. */
  private readonly logos: LogoDesigner;
  /** A family's logo, by its shared design: designations show the same image as their IR. */
  private readonly logoByDesign = new WeakMap<MarkDesign, LogoPlan>();

  constructor(
    seed: number,
    private readonly parties: PartyCatalog,
  ) {
    this.random = new Random(mix32(seed) ^ 0x7a11);
    this.logos = new LogoDesigner(mix32(seed));
    this.ownerIndexById = new Map(parties.owners.map((owner, index) => [owner._id, index]));
    this.madridOwnerCountries = [...parties.ownersByCountry.keys()].filter((country) => !NON_MADRID_COUNTRIES.has(country));
  }

  /** Generates the next filing family (at most `budget` marks) into `out`; returns its size. */
  nextFamily(budget: number, out: MarkBundle): number {
    const office = OFFICE_TABLE.pick(this.random);
    if (office.code === 'WO') return this.madridFamily(budget, out);
    const filingDay = this.filingDay(office.minFilingDay);
    const ownerIndex = this.ownerFor(office);
    const coOwner = this.random.chance(0.04) ? this.anyOwnerIndex() : ownerIndex;
    const shared = this.shared(ownerIndex, filingDay, coOwner === ownerIndex ? [ownerIndex] : [ownerIndex, coOwner]);
    this.emitMark(office, 'national', filingDay, shared, out);
    return 1;
  }

  private filingDay(minDay: number): number {
    for (;;) {
      const year = FILING_YEARS.pick(this.random);
      const day = startOfYear(year) + this.random.int(0, 364);
      if (day >= minDay && day <= LAST_DAY - 1) return day;
    }
  }

  private anyOwnerIndex(): number {
    return this.random.skewedIndex(this.parties.owners.length, 2.2);
  }

  private ownerFromCountry(country: string): number | null {
    const list = this.parties.ownersByCountry.get(country);
    return list === undefined ? null : itemAt(list, this.random.skewedIndex(list.length, 2.5));
  }

  /** Most direct filers at an office come from its own territory. */
  private ownerFor(office: OfficeProfile): number {
    if (office.homeCountries.length > 0 && this.random.chance(0.7)) {
      const domestic = this.ownerFromCountry(this.random.pick(office.homeCountries));
      if (domestic !== null) return domestic;
    }
    return this.anyOwnerIndex();
  }

  private design(): MarkDesign {
    const featureType = FEATURE_TYPES.pick(this.random);
    if (featureType === 'figurative') {
      const device = this.random.pick(DEVICES);
      return { text: device.text, featureType, viennaCodes: this.random.chance(0.3) ? [device.vienna, '29.01'] : [device.vienna], wordLike: false };
    }
    const viennaCodes =
      featureType === 'combined' ? this.random.sample([this.random.pick(DEVICES).vienna, ...COMBINED_MARK_VIENNA], this.random.int(1, 3)).sort() : [];
    return { text: markText(this.random), featureType, viennaCodes, wordLike: true };
  }

  /** Mark text, owners and classes; sometimes a near-duplicate of, or a refiling of, a recent mark. */
  private shared(ownerIndex: number, filingDay: number, ownerIndexes: number[]): FamilyShared {
    let design = this.design();
    let classes: number[] | null = null;
    let conflictOwnerIndex: number | null = null;
    const roll = this.random.next();
    if (design.wordLike && this.recent.length > 0 && roll < 0.15) {
      const earlier = this.random.pick(this.recent);
      if (roll < 0.11) {
        design = { ...design, text: nearDuplicate(earlier.text, this.random) };
        classes = pickClasses(this.random, this.random.chance(0.6) ? this.random.pick(earlier.classes) : null);
        if (earlier.ownerIndex !== ownerIndex) conflictOwnerIndex = earlier.ownerIndex;
      } else {
        design = { ...design, text: earlier.text };
        ownerIndexes = [earlier.ownerIndex];
        classes = earlier.classes;
      }
    }
    const finalClasses = classesInForce(classes ?? pickClasses(this.random), filingDay);
    if (design.wordLike) {
      const entry: RecentMark = { text: design.text, ownerIndex: itemAt(ownerIndexes, 0), classes: finalClasses };
      if (this.recent.length < RECENT_CAPACITY) this.recent.push(entry);
      else this.recent[this.random.int(0, RECENT_CAPACITY - 1)] = entry;
    }
    const priorityDay = this.random.chance(0.15) ? filingDay - this.random.int(20, 182) : null;
    return {
      design,
      ownerIndexes,
      classes: finalClasses,
      legalCategory: LEGAL_CATEGORIES.pick(this.random),
      priorityDay,
      renewals: [this.random.chance(0.65), this.random.chance(0.8), this.random.chance(0.85)],
      conflictOwnerIndex,
      irNumber: null,
      irDay: null,
    };
  }

  private madridFamily(budget: number, out: MarkBundle): number {
    const holderCountry = this.random.pick(this.madridOwnerCountries);
    const ownerIndex = this.ownerFromCountry(holderCountry) ?? this.anyOwnerIndex();
    const wo = OFFICE_BY_CODE.get('WO');
    if (wo === undefined) throw new Error('WO profile missing');
    const irDay = this.filingDay(0);
    const shared = this.shared(ownerIndex, irDay, [ownerIndex]);
    const irNumber = this.allocator.allocate('WO:application', wo.applicationSeries, irDay, this.random);
    const family: FamilyShared = { ...shared, irNumber, irDay };
    this.emitMark(wo, 'international', irDay, family, out);

    const origin = EU_COUNTRIES.has(holderCountry) && this.random.chance(0.4) ? 'EM' : holderCountry;
    const candidates = designatableOffices(irDay, origin);
    const wanted = Math.min(budget - 1, 1 + this.random.skewedIndex(5, 1.8), candidates.length);
    for (const office of this.random.sample(candidates, wanted)) {
      const later = this.random.chance(0.2) ? addMonths(irDay, this.random.int(12, 60)) : irDay;
      const designationDay = later <= LAST_DAY - 30 && office.madridFrom !== null && later >= office.madridFrom ? later : irDay;
      const classes = family.classes.length > 1 && this.random.chance(0.2) ? family.classes.slice(1) : family.classes;
      this.emitMark(office, 'designation', designationDay, { ...family, classes }, out);
    }
    return 1 + wanted;
  }

  private attorneysFor(ownerIndex: number, office: OfficeProfile): number[] {
    if (this.random.chance(0.1)) return [];
    const ownerCountry = itemAt(this.parties.owners, ownerIndex).country_code ?? 'US';
    const country =
      office.homeCountries.length === 0 || office.homeCountries.includes(ownerCountry)
        ? ownerCountry
        : itemAt(office.homeCountries, ownerIndex % office.homeCountries.length);
    // Where the chosen country has no attorney, one of another of the office's home countries: a
    // representative before EUIPO must practise in the EEA (Art. 120 EUTMR), before a national
    // office in its country.
    const pool =
      [country, ...office.homeCountries].map((candidate) => this.parties.attorneysByCountry.get(candidate)).find((attorneys) => attorneys !== undefined) ??
      null;
    const total = this.parties.attorneys.length;
    // Owners keep their representative: a stable choice per (owner, country), with exceptions.
    const stable = mix32(ownerIndex * 7919 + country.charCodeAt(0) * 31 + country.charCodeAt(1));
    if (pool !== null) return [this.random.chance(0.85) ? itemAt(pool, stable % pool.length) : this.random.pick(pool)];
    return [stable % total];
  }

  private emitMark(office: OfficeProfile, kind: MarkKind, filingDay: number, shared: FamilyShared, out: MarkBundle): void {
    const random = this.random;
    const applicationNumber =
      kind === 'international' && shared.irNumber !== null
        ? shared.irNumber
        : this.allocator.allocate(
            `${office.code}:${kind === 'designation' && office.designationSeries !== null ? 'designation' : 'application'}`,
            kind === 'designation' && office.designationSeries !== null ? office.designationSeries : office.applicationSeries,
            filingDay,
            random,
          );
    const trademarkId = catalogId('tm_', office.code, applicationNumber);
    const attorneyIndexes = this.attorneysFor(itemAt(shared.ownerIndexes, 0), office);
    const hooks: LifecycleHooks = {
      registrationNumber: (day) =>
        office.registrationSeries === null || kind === 'international'
          ? applicationNumber
          : this.allocator.allocate(`${office.code}:registration`, office.registrationSeries, day, random),
      anyOwnerIndex: () => this.anyOwnerIndex(),
      assignee: (current) => this.assignee(current),
      attorneyFor: (ownerIndex) => this.attorneysFor(ownerIndex, office),
    };
    const lifecycle = simulateLifecycle(
      {
        office,
        kind,
        filingDay,
        internationalDay: shared.irDay,
        priorityDay: shared.priorityDay,
        priorityCorrected: shared.priorityDay !== null && random.chance(0.15),
        ownerIndexes: shared.ownerIndexes,
        attorneyIndexes,
        classes: shared.classes,
        renewals: shared.renewals,
        oppositionChance: shared.conflictOwnerIndex !== null ? 0.12 : 0.022,
        conflictOwnerIndex: shared.conflictOwnerIndex,
      },
      random,
      hooks,
    );

    const proceedingNumbers = new Map(
      lifecycle.proceedings.map((plan) => [plan, proceedingNumber(this.allocator, random, office.code, plan, applicationNumber)]),
    );
    const owners = this.parties.owners;
    const attorneys = this.parties.attorneys;
    // Steps share owner/attorney arrays until they change; map each array to IDs once.
    const ownerIds = new Map<readonly number[], string[]>();
    const attorneyIds = new Map<readonly number[], string[]>();
    const idsOf = (cache: Map<readonly number[], string[]>, indexes: readonly number[], docs: ReadonlyArray<{ _id: string }>): string[] => {
      let ids = cache.get(indexes);
      if (ids === undefined) {
        ids = indexes.map((index) => itemAt(docs, index)._id);
        cache.set(indexes, ids);
      }
      return ids;
    };
    const track = (step: Step): TrackedValues => {
      const state = step.state;
      const inForce = state.registration !== null && (state.stage === 'registered' || state.stage === 'pending_cancellation');
      return {
        status_stage: state.stage,
        status_primary: PRIMARY_BY_STAGE[state.stage],
        status_reason: state.reason,
        challenge_states: state.challenges,
        publication_date: state.publication === null ? null : isoDate(state.publication),
        registration_date: state.registration === null ? null : isoDate(state.registration),
        registration_number: state.registrationNumber,
        expiry_date: state.expiry === null ? null : isoDate(state.expiry),
        renewal_due_date: inForce && state.expiry !== null ? isoDate(state.expiry) : null,
        termination_date: state.termination === null ? null : isoDate(state.termination),
        priority_date: state.priority === null ? null : isoDate(state.priority),
        owners: idsOf(ownerIds, state.ownerIndexes, owners),
        attorneys: idsOf(attorneyIds, state.attorneyIndexes, attorneys),
        classifications: state.classes,
      };
    };
    const history = buildHistory(
      {
        trademarkId,
        office,
        applicationNumber,
        markText: shared.design.text,
        filingDay,
        steps: lifecycle.steps,
        events: lifecycle.events,
        proceedingNumbers,
        track,
      },
      random,
    );
    const lastStep = itemAt(lifecycle.steps, lifecycle.steps.length - 1);
    const final = lastStep.state;
    const values = track(lastStep);
    const classificationByClass = new Map(shared.classes.map((nice) => [nice, classification(random, nice, filingDay)]));
    const mediaShape = MEDIA_BY_FEATURE[shared.design.featureType];
    const mediaId = representationMediaId(trademarkId);
    if (mediaShape !== undefined) out.logos.push(this.logo(shared.design, trademarkId, mediaId));
    const isSeries = (office.code === 'GB' || office.code === 'AU') && random.chance(0.02);

    out.trademarks.push({
      _id: trademarkId,
      mark_text: shared.design.text,
      application_number: applicationNumber,
      registration_number: final.registrationNumber,
      ir_number: shared.irNumber,
      office_code: office.code,
      jurisdiction_code: office.jurisdictionCode,
      filing_route: kind === 'national' ? office.nationalRoute : 'madrid',
      scope_kind: kind === 'international' ? 'international' : office.scopeKind,
      mark_feature_type: shared.design.featureType,
      mark_legal_category: shared.legalCategory,
      right_kind: rightKind(final.classes),
      is_series_mark: isSeries,
      series_id: isSeries ? applicationNumber : null,
      is_retracted: random.chance(0.001),
      vienna_codes: shared.design.viennaCodes,
      media: mediaShape === undefined ? [] : [{ id: mediaId, ...mediaShape, url: `/v1/media/${mediaId}` }],
      status: { primary: PRIMARY_BY_STAGE[final.stage], stage: final.stage, reason: final.reason, challenge_states: final.challenges, office_status: null },
      filing_date: isoDate(filingDay),
      priority_date: values.priority_date,
      publication_date: values.publication_date,
      registration_date: values.registration_date,
      expiry_date: values.expiry_date,
      renewal_due_date: values.renewal_due_date,
      termination_date: values.termination_date,
      international_registration_date: shared.irDay === null ? null : isoDate(shared.irDay),
      designation_date: kind === 'designation' ? isoDate(filingDay) : null,
      classifications: final.classes.map((nice) => classificationByClass.get(nice) ?? classification(random, nice, filingDay)),
      owner_ids: values.owners,
      attorney_ids: values.attorneys,
      owner_history: ownerHistory(lifecycle.steps, owners),
      proceeding_count: lifecycle.proceedings.length,
      version: history.version,
      source_updated_at: history.sourceUpdatedAt,
      created_at: history.createdAt,
      updated_at: history.updatedAt,
    });
    out.changes.push(...history.changes);
    out.sources.push(...history.sources);
    out.events.push(...history.events);
    for (const plan of lifecycle.proceedings) {
      out.proceedings.push(
        buildProceeding(
          plan,
          {
            trademarkId,
            officeCode: office.code,
            number: proceedingNumbers.get(plan) ?? '',
            holders: final.ownerIndexes.map((index) => itemAt(owners, index)),
            challenger: plan.challengerIndex === null ? null : itemAt(owners, plan.challengerIndex),
            firstObservedDay: history.firstObservedDay,
          },
          random,
        ),
      );
    }
  }

  private logo(design: MarkDesign, trademarkId: string, mediaId: string): LogoPlan {
    const subject = { trademarkId, mediaId, featureType: design.featureType, text: design.text, viennaCodes: design.viennaCodes };
    const family = this.logoByDesign.get(design);
    if (family !== undefined) return this.logos.sameAs(family, subject);
    const plan = this.logos.design(subject);
    this.logoByDesign.set(design, plan);
    return plan;
  }

  /** New owner after an assignment: often the group parent, otherwise another owner. */
  private assignee(current: readonly number[]): number[] {
    const owner = itemAt(this.parties.owners, itemAt(current, 0));
    const parent = owner.relationships.find((relation) => relation.direction === 'parent');
    if (parent !== undefined && this.random.chance(0.6)) {
      const parentIndex = this.ownerIndexById.get(parent.related_owner_id);
      if (parentIndex !== undefined) return [parentIndex];
    }
    let next = this.anyOwnerIndex();
    for (let attempt = 0; attempt < 5 && current.includes(next); attempt++) next = this.anyOwnerIndex();
    return [next];
  }
}
