/**
 * Turns a simulated lifecycle into what the catalog stores about a mark's past: versioned change
 * rows (what we observed, when), source observations with payload hashes, and office events.
 *
 * Marks filed before the initial backfill are first observed during it, with everything that
 * happened before folded into version 1; later marks are observed a few days after filing. Each
 * later state change is observed one to five days after it happened.
 */
import { createHash } from 'node:crypto';
import eventTypes from '../../../data/event_types.json';
import { addEvents, diffValues, type EventChange, type FieldChanges } from '../../../domain/trademark-changes';
import type { TrademarkChangeDoc, TrademarkEventDoc, TrademarkSourceDoc } from '../../../domain/records';
import { isoDate, isoTimestamp } from './dates';
import type { PlannedEvent, ProceedingPlan, Step } from './lifecycle';
import { LAST_DAY } from './lifecycle';
import type { OfficeProfile } from './offices';
import { BACKFILL_DAYS, BACKFILL_START } from './parties';
import { type Random } from './random';

const MS_PER_DAY = 86_400_000;

/** Record fields tracked in change rows, by their change-record names (classifications as their class numbers, parties as IDs). */
export interface TrackedValues {
  status_stage: string;
  status_primary: string;
  status_reason: string | null;
  challenge_states: readonly string[];
  publication_date: string | null;
  registration_date: string | null;
  registration_number: string | null;
  expiry_date: string | null;
  renewal_due_date: string | null;
  termination_date: string | null;
  priority_date: string | null;
  owners: string[];
  attorneys: string[];
  classifications: readonly number[];
}

interface EventWording {
  uspto: string | null;
  usptoCode: string | null;
  euipo: string | null;
  generic: string;
}

/** Some event types have a located USPTO wording without a code. */
function usptoCodeOf(entry: { code?: string; description: string } | undefined): string | null {
  return entry?.code ?? null;
}

const EVENT_WORDING: ReadonlyMap<string, EventWording> = new Map(
  eventTypes.map((type) => [
    type.code,
    {
      uspto: type.uspto_tsdr[0]?.description ?? null,
      usptoCode: usptoCodeOf(type.uspto_tsdr[0]),
      euipo: type.euipo_status[0] ?? null,
      generic: type.description,
    },
  ]),
);

function eventDescription(code: string, officeCode: string, proceedingNumber: string | null): string {
  const wording = EVENT_WORDING.get(code);
  if (wording === undefined) throw new Error(`event code ${code} is not in data/event_types.json`);
  if (officeCode === 'US' && wording.uspto !== null) return wording.uspto.replace('<n>', proceedingNumber ?? '').trim();
  if (officeCode === 'EM' && wording.euipo !== null) return wording.euipo;
  return wording.generic;
}

/** The USPTO's own code of an event type, for generated US events (null elsewhere or when unknown). */
function officeEventCode(code: string, officeCode: string): string | null {
  return officeCode === 'US' ? (EVENT_WORDING.get(code)?.usptoCode ?? null) : null;
}

const RESPONSE_TYPE_BY_FORMAT: Readonly<Record<string, string>> = { xml_dtd: 'bulk_daily', xml_st96: 'case_status', json: 'api_detail' };

export interface HistoryInput {
  trademarkId: string;
  office: OfficeProfile;
  applicationNumber: string;
  markText: string;
  filingDay: number;
  steps: readonly Step[];
  events: readonly PlannedEvent[];
  proceedingNumbers: ReadonlyMap<ProceedingPlan, string>;
  /** Values of the tracked fields for a step's state. */
  track: (step: Step) => TrackedValues;
}

export interface History {
  changes: TrademarkChangeDoc[];
  sources: TrademarkSourceDoc[];
  events: TrademarkEventDoc[];
  createdAt: string;
  updatedAt: string;
  sourceUpdatedAt: string;
  version: number;
  /** Day the catalog first observed the record. */
  firstObservedDay: number;
}

/** When the catalog first saw a record filed on `filingDay`. */
function firstObservationDay(random: Random, filingDay: number): number {
  if (filingDay < BACKFILL_START) return BACKFILL_START + random.int(0, BACKFILL_DAYS - 1);
  return Math.min(LAST_DAY, filingDay + random.int(1, 7));
}

/** When a change that happened on `day` was observed (never before the first observation). */
export function observationDay(random: Random, day: number, firstObserved: number): number {
  return Math.max(firstObserved, Math.min(LAST_DAY, day + random.int(1, 5)));
}

export function buildHistory(input: HistoryInput, random: Random): History {
  const { trademarkId, office, steps } = input;
  /** Callers pass at least one step, and every index below stays within the list. */
  const stepAt = (i: number): Step => steps[i] as Step;
  const firstDay = firstObservationDay(random, input.filingDay);
  let observedMs = firstDay * MS_PER_DAY + random.int(0, 86_399) * 1000;

  let index = 0;
  while (index + 1 < steps.length && stepAt(index + 1).day <= firstDay) index++;
  const initial = input.track(stepAt(index));
  const createdAt = new Date(observedMs).toISOString();
  const created: FieldChanges = { changed_fields: Object.keys(initial), old_values: {}, new_values: { ...initial } };
  addEvents(created, eventsBetween(input, -Infinity, stepAt(index).day));
  const changes: TrademarkChangeDoc[] = [
    {
      _id: `${trademarkId}:v1`,
      trademark_id: trademarkId,
      version: 1,
      change_type: 'created',
      changed_fields: created.changed_fields,
      old_values: null,
      new_values: created.new_values,
      source_data_date: isoDate(stepAt(index).day),
      office_code: office.code,
      created_at: createdAt,
    },
  ];
  let previous = initial;
  let lastSourceDay = stepAt(index).day;

  for (index++; index < steps.length; index++) {
    // Several steps on one day are one observation.
    while (index + 1 < steps.length && stepAt(index + 1).day === stepAt(index).day) index++;
    const step = stepAt(index);
    const current = input.track(step);
    const diff = diffValues(previous, current);
    // Events alone make no version here: a step's events wait for the next observed change.
    if (diff.changed_fields.length === 0) continue;
    addEvents(diff, eventsBetween(input, lastSourceDay, step.day));
    const { changed_fields: changedFields, old_values: oldValues, new_values: newValues } = diff;
    const dayMs = observationDay(random, step.day, firstDay) * MS_PER_DAY + random.int(0, 86_399) * 1000;
    observedMs = Math.max(observedMs + 60_000, dayMs);
    const version = changes.length + 1;
    changes.push({
      _id: `${trademarkId}:v${version}`,
      trademark_id: trademarkId,
      version,
      change_type: step.correction ? 'corrected' : 'updated',
      changed_fields: changedFields,
      old_values: oldValues,
      new_values: newValues,
      source_data_date: isoDate(step.day),
      office_code: office.code,
      created_at: new Date(observedMs).toISOString(),
    });
    previous = current;
    lastSourceDay = step.day;
  }

  const updatedAt = (changes[changes.length - 1] as TrademarkChangeDoc).created_at;
  return {
    changes,
    sources: buildSources(input, random, changes, String(previous.status_stage)),
    events: buildEvents(input),
    createdAt,
    updatedAt,
    sourceUpdatedAt: isoTimestamp(lastSourceDay, 0),
    version: changes.length,
    firstObservedDay: firstDay,
  };
}

/**
 * The events a version observed as of `day` lists under `events`: those after the previous
 * version's data day (`after`) up to its own. Events after the last version are in no change row.
 */
function eventsBetween(input: HistoryInput, after: number, day: number): EventChange[] {
  return input.events
    .filter((event) => event.day > after && event.day <= day)
    .map((event) => ({ event_type: event.code, event_date: isoDate(event.day), office_event_code: officeEventCode(event.code, input.office.code) }));
}

function sourceLocator(input: HistoryInput, format: string, observedAt: string): string {
  if (input.office.code !== 'US') return `${input.office.locatorPrefix}:${input.applicationNumber}`;
  if (format === 'xml_dtd') return `apc${observedAt.slice(2, 4)}${observedAt.slice(5, 7)}${observedAt.slice(8, 10)}.zip`;
  return `https://tsdrapi.uspto.gov/ts/cd/casestatus/sn${input.applicationNumber}/download_xml.zip`;
}

function buildSources(input: HistoryInput, random: Random, changes: readonly TrademarkChangeDoc[], stage: string): TrademarkSourceDoc[] {
  const [firstFormat, laterFormat] = input.office.sourceFormats;
  const version = changes.length;
  const createdAt = changes[0]!.created_at;
  const updatedAt = changes[version - 1]!.created_at;
  const observations: Array<{ observedAt: string; format: string; version: number }> = [{ observedAt: createdAt, format: firstFormat, version: 1 }];
  if (version > 1) observations.push({ observedAt: updatedAt, format: laterFormat, version });
  else if (random.chance(0.3)) {
    const createdDay = Math.floor(Date.parse(createdAt) / MS_PER_DAY);
    if (createdDay + 1 <= LAST_DAY) {
      observations.push({ observedAt: isoTimestamp(random.int(createdDay + 1, LAST_DAY), random.int(0, 86_399)), format: firstFormat, version });
    }
  }
  return observations.map(({ observedAt, format, version: observedVersion }) => {
    // A stand-in for the raw document: the same record state in the same format hashes the same.
    const payload = `${format}|${input.office.code}|${input.applicationNumber}|${input.markText}|v${observedVersion}|${observedVersion === version ? stage : 'initial'}`;
    return {
      _id: `${input.trademarkId}:${observedAt}`,
      trademark_id: input.trademarkId,
      office_code: input.office.code,
      observed_at: observedAt,
      source_format: format,
      source_response_type: RESPONSE_TYPE_BY_FORMAT[format] ?? null,
      source_locator: sourceLocator(input, format, observedAt),
      payload_hash: `sha256:${createHash('sha256').update(payload).digest('hex')}`,
      source_data_date: changes[observedVersion - 1]?.source_data_date ?? null,
    };
  });
}

function buildEvents(input: HistoryInput): TrademarkEventDoc[] {
  return input.events.map((event, i) => ({
    _id: `${input.trademarkId}:e${i + 1}`,
    trademark_id: input.trademarkId,
    event_type: event.code,
    event_date: isoDate(event.day),
    office_code: input.office.code,
    office_event_code: officeEventCode(event.code, input.office.code),
    description: eventDescription(event.code, input.office.code, event.proceeding === null ? null : (input.proceedingNumbers.get(event.proceeding) ?? null)),
  }));
}
