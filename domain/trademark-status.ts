/**
 * What a status stage means for the primary status: one table, used by the generator's simulated
 * lifecycles and by manual edits (`marque marks add|update --status`). Office ingestion takes the
 * primary status from the office's own table where it has one (USPTO Live/Dead), which can differ
 * for a few stages (a US notice of allowance is Live/Pending, while `allowed` reads active here).
 */
import type { StatusPrimary, StatusStage } from './records';

export const PRIMARY_BY_STAGE: Readonly<Record<StatusStage, StatusPrimary>> = {
  filed: 'pending',
  examining: 'pending',
  pending_publication: 'pending',
  published: 'pending',
  opposition_period: 'pending',
  pending_opposition: 'pending',
  pending_cancellation: 'active',
  pending_issuance: 'active',
  registered: 'active',
  allowed: 'active',
  abandoned: 'inactive',
  withdrawn: 'inactive',
  surrendered: 'inactive',
  refused: 'inactive',
  cancelled: 'inactive',
  invalidated: 'inactive',
  expired: 'inactive',
  unknown: 'unknown',
};
