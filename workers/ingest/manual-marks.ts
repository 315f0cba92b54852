/**
 * Marks added or changed by hand (`marque marks add|update`), written through the same write path
 * as office records (mark-writer.ts), so they reach the change feed, the indexer, watches and
 * webhooks exactly like an ingested record.
 *
 * - Application numbers of added marks are `MQ` and seven digits (MQ0000001, MQ0000002, …), from
 *   a counter per office kept in the store's `meta` collection and advanced in a transaction, so
 *   concurrent commands never mint the same number. No office issues numbers starting with MQ.
 * - `status` is a status stage, or a primary status standing for its usual stage (pending →
 *   filed, active → registered, inactive → abandoned, unknown → unknown); the primary status
 *   follows from the stage (domain/trademark-status.ts), the reason is left unknown (null).
 * - Entering a stage fills the date that stage implies when the record has none yet (today, UTC):
 *   publication_date for published / opposition_period, registration_date for registered, and
 *   termination_date for the inactive stages.
 * - Manual changes carry no office data date (they are not subject to the office-record
 *   precedence); their source observation is `manual`, with the command's options as raw record.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { DocumentStore, StoredDocument } from '../../datasources/ports';
import { catalogId } from '../../domain/ids';
import { niceEditionFor } from '../../domain/nice-edition';
import { COLLECTIONS, STATUS_PRIMARIES, STATUS_STAGES, type StatusPrimary, type StatusStage, type TrademarkDoc } from '../../domain/records';
import { PRIMARY_BY_STAGE } from '../../domain/trademark-status';
import { officeByCode } from '../../domain/offices';
import { eventTypeOf, NICE_CLASSES } from '../../resolvers/reference-data';
import type { MarkContent, MarkInput, SourceInput } from './mark-input';
import { withoutDetached, type MarkWriter, type MarkWriteResult } from './mark-writer';

export class ManualMarkError extends Error {
  override readonly name = 'ManualMarkError';
}

const STAGE_OF_PRIMARY: Readonly<Record<StatusPrimary, StatusStage>> = { pending: 'filed', active: 'registered', inactive: 'abandoned', unknown: 'unknown' };

/** A stage, or a primary status read as its usual stage. */
function stageOf(status: string): StatusStage {
  if ((STATUS_STAGES as readonly string[]).includes(status)) return status as StatusStage;
  if ((STATUS_PRIMARIES as readonly string[]).includes(status)) return STAGE_OF_PRIMARY[status as StatusPrimary];
  throw new ManualMarkError(`status must be a stage (${STATUS_STAGES.join(', ')}) or a primary status (${STATUS_PRIMARIES.join(', ')}); got '${status}'`);
}

export interface AddMarkOptions {
  markText: string;
  officeCode: string;
  classes: readonly number[];
  ownerName: string | null;
  status: string;
  /** Today's date (UTC), the filing date. */
  today: string;
}

export interface UpdateMarkOptions {
  status: string | null;
  eventType: string | null;
  publicationDate: string | null;
  today: string;
}

interface CounterDoc extends StoredDocument {
  last: number;
}

async function mintApplicationNumber(store: DocumentStore, officeCode: string): Promise<string> {
  const counters = store.collection<CounterDoc>(COLLECTIONS.meta);
  const counterId = `manual_application_number:${officeCode}`;
  const last = await store.transaction(async () => {
    await counters.updateOne({ _id: counterId }, { $inc: { last: 1 } }, { upsert: true });
    return (await counters.findOne({ _id: counterId }))?.last ?? 1;
  });
  return `MQ${String(last).padStart(7, '0')}`;
}

function manualSource(action: string, options: object): SourceInput {
  const payload = JSON.stringify({ action, ...options });
  return {
    format: 'manual',
    response_type: 'cli',
    locator: `marque marks ${action}`,
    data_date: null,
    payload_hash: `sha256:${createHash('sha256').update(payload).digest('hex')}`,
    raw: { media_type: 'application/json', gzip_base64: gzipSync(payload).toString('base64') },
  };
}

/** The stage, its primary status and the date it implies (only where the record has none). */
function withStage(content: MarkContent, stage: StatusStage, today: string): MarkContent {
  const primary = PRIMARY_BY_STAGE[stage];
  return {
    ...content,
    status: { ...content.status, stage, primary, reason: null },
    publication_date: content.publication_date ?? (stage === 'published' || stage === 'opposition_period' ? today : null),
    registration_date: content.registration_date ?? (stage === 'registered' ? today : null),
    termination_date: content.termination_date ?? (primary === 'inactive' ? today : null),
  };
}

function checkEventType(code: string): void {
  if (!eventTypeOf(code)) throw new ManualMarkError(`--event must be a code of GET /v1/event-types (data/event_types.json); got '${code}'`);
}

export async function addMark(store: DocumentStore, writer: MarkWriter, options: AddMarkOptions): Promise<MarkWriteResult> {
  const office = officeByCode(options.officeCode);
  if (!office) throw new ManualMarkError(`unknown office '${options.officeCode}'`);
  if (options.markText.trim() === '') throw new ManualMarkError('--mark-text must not be empty');
  if (options.classes.length === 0) throw new ManualMarkError('--classes must name at least one Nice class');
  const classes = [...new Set(options.classes)].sort((a, b) => a - b);
  for (const niceClass of classes) {
    if (!Number.isInteger(niceClass) || niceClass < 1 || niceClass > 45) throw new ManualMarkError(`Nice classes are 1 to 45 (got ${niceClass})`);
  }
  const stage = stageOf(options.status);
  let applicationNumber = await mintApplicationNumber(store, office.office_code);
  while (await store.collection(COLLECTIONS.trademarks).findOne({ _id: catalogId('tm_', office.office_code, applicationNumber) })) {
    applicationNumber = await mintApplicationNumber(store, office.office_code);
  }
  const services = classes.some((c) => c >= 35);
  const goods = classes.some((c) => c <= 34);
  const content: MarkContent = {
    mark_text: options.markText.trim(),
    registration_number: null,
    ir_number: null,
    jurisdiction_code: office.jurisdiction_code,
    filing_route: office.kind === 'regional' ? 'regional' : office.kind === 'international' ? 'madrid' : 'national',
    scope_kind: office.kind === 'regional' ? 'regional' : office.kind === 'international' ? 'international' : 'national',
    mark_feature_type: 'word',
    mark_legal_category: 'individual',
    right_kind: goods && services ? 'trademark_and_service_mark' : services ? 'service_mark' : 'trademark',
    is_series_mark: false,
    series_id: null,
    is_retracted: false,
    vienna_codes: [],
    media: [],
    status: { primary: 'pending', stage: 'filed', reason: null, challenge_states: [], office_status: null },
    filing_date: options.today,
    priority_date: null,
    publication_date: null,
    registration_date: null,
    expiry_date: null,
    renewal_due_date: null,
    termination_date: null,
    international_registration_date: null,
    designation_date: null,
    classifications: classes.map((niceClass) => ({
      nice_class: niceClass,
      goods_services_text: NICE_CLASSES.find((c) => c.class === niceClass)?.heading ?? '',
      nice_edition: niceEditionFor(options.today),
    })),
  };
  const owner = options.ownerName === null ? [] : [{ name: options.ownerName, entity_type: 'other' as const, country_code: null, city: null, postcode: null }];
  const input: MarkInput = {
    office_code: office.office_code,
    application_number: applicationNumber,
    content: withStage(content, stage, options.today),
    owners: owner,
    attorneys: [],
    owner_history: owner.map((o) => ({
      owner: o,
      name: o.name,
      role: 'applicant',
      office_party_type: null,
      recorded_date: null,
      reference: null,
      conveyance: null,
    })),
    events: [
      {
        key: `manual:${options.today}:application_filed`,
        event_type: 'application_filed',
        event_date: options.today,
        office_event_code: null,
        description: null,
      },
    ],
    source: manualSource('add', { office: office.office_code, application_number: applicationNumber, ...options }),
  };
  const [result] = await writer.write([input]);
  return result!;
}

export async function updateMark(store: DocumentStore, writer: MarkWriter, trademarkId: string, options: UpdateMarkOptions): Promise<MarkWriteResult> {
  const stored = await store.collection<TrademarkDoc>(COLLECTIONS.trademarks).findOne({ _id: trademarkId });
  if (!stored) throw new ManualMarkError(`no trademark ${trademarkId}`);
  if (options.eventType !== null) checkEventType(options.eventType);
  const {
    _id,
    office_code,
    application_number,
    owner_ids,
    attorney_ids,
    owner_history,
    proceeding_count: _count,
    version: _version,
    source_updated_at: _sourceDate,
    created_at: _created,
    updated_at: _updated,
    ...content
  } = withoutDetached(stored);
  let next: MarkContent = { ...content, publication_date: options.publicationDate ?? content.publication_date };
  if (options.status !== null) next = withStage(next, stageOf(options.status), options.today);
  const eventType = options.eventType;
  const input: MarkInput = {
    office_code,
    application_number,
    content: next,
    owners: owner_ids.map((id) => ({ owner_id: id })),
    attorneys: attorney_ids.map((id) => ({ attorney_id: id })),
    owner_history: (owner_history ?? [])
      .filter((entry) => entry.source === 'office_record')
      .map(({ owner_id, source: _source, ...entry }) => ({ ...entry, owner: { owner_id } })),
    events:
      eventType === null
        ? []
        : [
            {
              key: `manual:${new Date().toISOString()}:${eventType}`,
              event_type: eventType,
              event_date: options.today,
              office_event_code: null,
              description: null,
            },
          ],
    source: manualSource('update', { trademark_id: _id, version: stored.version, ...options }),
  };
  const [result] = await writer.write([input]);
  return result!;
}
