/**
 * What the write path (mark-writer.ts) takes: the full desired state of one office record, or an
 * amendment of the parts other sources own. Plain data only, so a parsing thread can build these
 * and post them to the thread that writes.
 */
import type { EntityType, OwnerHistoryRole, TrademarkDoc } from '../../domain/records';

/** An owner as a source names it; matched to an owner record by domain/party-keys.ts, or created. */
export interface OwnerInput {
  name: string;
  entity_type: EntityType;
  country_code: string | null;
  city: string | null;
  postcode: string | null;
}

/** An existing owner record by ID, or a party to match or create. */
export type OwnerRef = { owner_id: string } | OwnerInput;

export interface FirmInput {
  name: string;
  country_code: string | null;
}

export interface AttorneyInput {
  name: string;
  country_code: string | null;
  email: string | null;
  firm: FirmInput | null;
}

export type AttorneyRef = { attorney_id: string } | AttorneyInput;

export interface OwnerHistoryInput {
  owner: OwnerRef;
  /** The name as this record spells it. */
  name: string;
  role: OwnerHistoryRole;
  office_party_type: string | null;
  recorded_date: string | null;
  reference: string | null;
  conveyance: string | null;
}

export interface EventInput {
  /**
   * The event's identity within the mark, the same every time a source states it (USPTO: entry
   * number, code and date); the stored event's ID is `{trademark_id}:{key}`, so an event is
   * stored once however many versions repeat it.
   */
  key: string;
  /** A code of data/event_types.json. */
  event_type: string;
  event_date: string;
  office_event_code: string | null;
  description: string | null;
}

/** Where a version came from (GET /v1/trademarks/{id}/source) and the raw record itself. */
export interface SourceInput {
  /** xml_dtd, xml_st96, json, manual. */
  format: string;
  response_type: string | null;
  /** File and record, e.g. `apc240914.zip!apc240914.xml#3`. */
  locator: string | null;
  /** The office's date of the record (USPTO transaction-date); decides which version wins. */
  data_date: string | null;
  /** `sha256:<hex>` of the raw record's bytes. */
  payload_hash: string;
  /** The raw record, gzip-compressed and base64-encoded, with its MIME type; null: not kept. */
  raw: { media_type: string; gzip_base64: string } | null;
}

/** The record's own fields as a source states them (identity, parties and bookkeeping apart). */
export type MarkContent = Omit<
  TrademarkDoc,
  | '_id'
  | 'office_code'
  | 'application_number'
  | 'owner_ids'
  | 'attorney_ids'
  | 'owner_history'
  | 'proceeding_count'
  | 'version'
  | 'source_updated_at'
  | 'created_at'
  | 'updated_at'
>;

/** The full desired state of one office record. */
export interface MarkInput {
  office_code: string;
  application_number: string;
  content: MarkContent;
  /** Current owners, in the record's order. */
  owners: OwnerRef[];
  attorneys: AttorneyRef[];
  /** The office record's owner rows (source office_record); they replace the stored ones. */
  owner_history: OwnerHistoryInput[];
  /** Every event the source states; those not stored yet are added (events accumulate). */
  events: EventInput[];
  source: SourceInput;
  /** `corrected` when the source says the new version corrects the previous one. */
  change_type?: 'updated' | 'corrected';
  /** The mark's image, when the record names its file (ingest-images.ts stores it). */
  image?: ImageFileInput;
}

/** An image file a record names, and its bytes as found beside the record's document. */
export interface ImageFileInput {
  /** The file name as the record gives it (ST.96 MarkImage/FileName). */
  file_name: string;
  /**
   * Read by the parse pipeline from the record's folder, or its folder in the same zip archive;
   * null when no such file is there. At most IMAGE_FILE_MAX_BYTES + 1 bytes are read.
   */
  bytes: Uint8Array | null;
}

/** Additions by sources that do not restate the whole record (assignments, proceedings). */
export interface MarkAmendment {
  trademark_id: string;
  /** Appended to the owner history unless already recorded (same owner, role and reference). */
  owner_history?: OwnerHistoryInput[];
  events?: EventInput[];
  /** Proceedings newly naming the mark. */
  proceeding_count_delta?: number;
  /** The source's date, kept as the change record's source_data_date. */
  data_date: string | null;
}
