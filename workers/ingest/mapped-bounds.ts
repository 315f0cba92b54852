/**
 * Bounds on what a mapped record may hold, beyond the reader's bound on the raw record
 * (xml/record-reader.ts MAX_RECORD_BYTES). A record under that bound can still cost far more once
 * mapped: the party resolver folds a name, splits it into words and keeps it in several documents
 * (a 16 MiB owner name peaked at 1.25 GB RSS), and a goods text shared by many classes through the
 * USPTO `primary-code` fallback is copied into each class (1 MB shared by 45 classes: 620 MB).
 * No real office record comes near these bounds, so a record past one is rejected, naming the field
 * and the bound, while the rest of the file loads. Lengths are counted in UTF-16 code units (JS
 * string length), which is what memory grows with.
 */
import type { ParsedItem } from './parsed-item';
import type { AttorneyRef, MarkInput, OwnerInput, OwnerRef } from './mark-input';
import { RecordRejection } from './record-rejection';

/**
 * Any one field of a party (name, city, postcode, email) and a firm's name: real names run to a
 * few hundred characters at most (a joint venture naming its members), addresses far less.
 */
export const PARTY_FIELD_MAX_CHARS = 1_000;

/**
 * The goods and services text of all classes of a mark together. The largest real case-file is
 * 10.9 MB, mostly Madrid history events; real goods lists run to tens of thousands of characters.
 */
export const GOODS_TOTAL_MAX_CHARS = 4 * 1024 * 1024;

/**
 * An assignment's conveyance text, which run-ingest.ts repeats in the owner history of every mark
 * the assignment names. Real ones are a sentence ("ASSIGNS THE ENTIRE INTEREST", a corrective
 * assignment citing the reel and frame it corrects).
 */
export const CONVEYANCE_MAX_CHARS = 10_000;

/**
 * Assignors and assignees of one assignment together: each becomes an owner-history row of every
 * mark the assignment names, kept in the mark's record and served with it. Real assignments name a
 * few parties, a merger of many companies some dozens.
 */
export const ASSIGNMENT_PARTIES_MAX = 1_000;

const formatted = (n: number): string => n.toLocaleString('en-US');

function checkLength(text: string | null, field: string, max: number): void {
  if (text !== null && text.length > max) throw new RecordRejection(`${field} is longer than ${formatted(max)} characters`);
}

function checkParty(party: OwnerInput, role: string): void {
  checkLength(party.name, `${role} name`, PARTY_FIELD_MAX_CHARS);
  checkLength(party.city, `${role} city`, PARTY_FIELD_MAX_CHARS);
  checkLength(party.postcode, `${role} postcode`, PARTY_FIELD_MAX_CHARS);
}

function checkOwnerRef(owner: OwnerRef, role: string): void {
  if (!('owner_id' in owner)) checkParty(owner, role);
}

function checkAttorney(attorney: AttorneyRef): void {
  if ('attorney_id' in attorney) return;
  checkLength(attorney.name, 'attorney name', PARTY_FIELD_MAX_CHARS);
  checkLength(attorney.email, 'attorney email', PARTY_FIELD_MAX_CHARS);
  if (attorney.firm !== null) checkLength(attorney.firm.name, 'firm name', PARTY_FIELD_MAX_CHARS);
}

function checkMark(mark: MarkInput): void {
  for (const owner of mark.owners) checkOwnerRef(owner, 'owner');
  // The record's owner rows, former owners too: all are the record's owners, whatever their role.
  for (const entry of mark.owner_history) {
    checkLength(entry.name, 'owner name', PARTY_FIELD_MAX_CHARS);
    checkOwnerRef(entry.owner, 'owner');
  }
  for (const attorney of mark.attorneys) checkAttorney(attorney);
  // Summed over classes, not per class: the cost is the copies, one per class sharing a text.
  let goods = 0;
  for (const classification of mark.content.classifications) goods += classification.goods_services_text.length;
  if (goods > GOODS_TOTAL_MAX_CHARS)
    throw new RecordRejection(`goods and services text of all classes together is longer than ${formatted(GOODS_TOTAL_MAX_CHARS)} characters`);
}

/** Throws RecordRejection when a field of the mapped record is past its bound. */
export function checkMappedBounds(item: ParsedItem): void {
  switch (item.kind) {
    case 'mark':
      return checkMark(item.mark);
    case 'assignment':
      if (item.assignment.assignors.length + item.assignment.assignees.length > ASSIGNMENT_PARTIES_MAX)
        throw new RecordRejection(`assignment names more than ${formatted(ASSIGNMENT_PARTIES_MAX)} assignors and assignees together`);
      for (const assignor of item.assignment.assignors) checkParty(assignor, 'assignor');
      for (const assignee of item.assignment.assignees) checkParty(assignee, 'assignee');
      return checkLength(item.assignment.conveyance, 'conveyance text', CONVEYANCE_MAX_CHARS);
    case 'proceeding':
      for (const party of item.proceeding.parties) checkParty(party.owner, 'party');
      return;
  }
}
