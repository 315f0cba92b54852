/**
 * The service team's side of feedback: the triage queue of every organization's reports (the
 * `marque feedback list` command), and status moves (`marque feedback acknowledge|resolve` or an
 * admin key): open → acknowledged → resolved, where acknowledging may be skipped and resolved is
 * final. Resolving sets resolved_at and needs a resolution note.
 */
import type { DocumentStore } from '../../datasources/ports';
import { invalid, notFound } from '../../domain/errors';
import { isWellFormedId } from '../../domain/ids';
import { COLLECTIONS, FEEDBACK_STATUSES, FEEDBACK_TYPES, type FeedbackDoc, type FeedbackStatus } from '../../domain/records';
import { truncate } from '../../domain/validation';
import { boundedText, FEEDBACK_RESOLUTION_NOTE_MAX_LENGTH } from './rules';

const NEXT_STATUSES: Readonly<Record<FeedbackStatus, readonly FeedbackStatus[]>> = {
  open: ['acknowledged', 'resolved'],
  acknowledged: ['resolved'],
  resolved: [],
};

export interface TriageQuery {
  /** Reports of these statuses (default: open). */
  statuses?: readonly string[];
  type?: string | null;
  limit: number;
}

/** Reports of every organization, oldest first: the order they are to be triaged in. */
export async function triageQueue(store: DocumentStore, query: TriageQuery): Promise<FeedbackDoc[]> {
  const statuses = query.statuses ?? ['open'];
  for (const status of statuses) {
    if (!(FEEDBACK_STATUSES as readonly string[]).includes(status))
      throw invalid('status', `must be a comma list of ${FEEDBACK_STATUSES.join(', ')} (got '${truncate(status)}')`);
  }
  const type = query.type ?? null;
  if (type !== null && !(FEEDBACK_TYPES as readonly string[]).includes(type))
    throw invalid('type', `must be one of ${FEEDBACK_TYPES.join(', ')} (got '${truncate(type)}')`);
  if (!Number.isSafeInteger(query.limit) || query.limit < 1) throw invalid('limit', 'must be a positive integer');
  const filter = { status: { $in: [...statuses] }, ...(type === null ? {} : { type }) };
  return store.collection<FeedbackDoc>(COLLECTIONS.feedback).find(filter, { sort: { created_at: 1, _id: 1 }, limit: query.limit });
}

export interface FeedbackTransition {
  status: string;
  resolutionNote?: string | null;
}

/** Moves report `id` (of any organization) to a later status; returns the updated report. */
export async function transitionFeedback(store: DocumentStore, id: string, transition: FeedbackTransition, now: Date): Promise<FeedbackDoc> {
  if (!isWellFormedId(id, 'fbk_')) throw invalid('id', `must be a feedback ID starting with fbk_ (got '${truncate(id)}')`);
  const status = transition.status as FeedbackStatus;
  if (!FEEDBACK_STATUSES.includes(status) || status === 'open')
    throw invalid('status', `must be acknowledged or resolved (got '${truncate(transition.status)}')`);
  const note = transition.resolutionNote ?? null;
  if (status === 'resolved' && note === null) throw invalid('resolution_note', 'is required when resolving');
  if (status !== 'resolved' && note !== null) throw invalid('resolution_note', 'is set only when resolving');

  const reports = store.collection<FeedbackDoc>(COLLECTIONS.feedback);
  const report = await reports.findOne({ _id: id });
  if (!report) throw notFound(`feedback report ${id}`);
  if (!NEXT_STATUSES[report.status].includes(status)) throw invalid('status', `a ${report.status} report cannot move to ${status}`);
  const at = now.toISOString();
  const fields: Partial<FeedbackDoc> =
    status === 'resolved'
      ? { status, resolution_note: boundedText('resolution_note', note as string, FEEDBACK_RESOLUTION_NOTE_MAX_LENGTH), resolved_at: at, updated_at: at }
      : { status, updated_at: at };
  // Guarded by the status read, so two concurrent moves cannot both apply.
  const result = await reports.updateOne({ _id: id, status: report.status }, { $set: fields });
  if (result.matchedCount === 0) throw invalid('status', `report ${id} changed status meanwhile; read it again`);
  return { ...report, ...fields };
}
