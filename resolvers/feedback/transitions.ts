/**
 * Feedback status moves, made by the service team (the `marque feedback` command or an admin
 * key): open → acknowledged → resolved, where acknowledging may be skipped and resolved is final.
 * Resolving sets resolved_at and needs a resolution note.
 */
import type { DocumentStore } from '../../datasources/ports';
import { invalid, notFound } from '../../domain/errors';
import { isWellFormedId } from '../../domain/ids';
import { COLLECTIONS, FEEDBACK_STATUSES, type FeedbackDoc, type FeedbackStatus } from '../../domain/records';
import { truncate } from '../../domain/validation';
import { boundedText, FEEDBACK_RESOLUTION_NOTE_MAX_LENGTH } from './rules';

const NEXT_STATUSES: Readonly<Record<FeedbackStatus, readonly FeedbackStatus[]>> = {
  open: ['acknowledged', 'resolved'],
  acknowledged: ['resolved'],
  resolved: [],
};

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
