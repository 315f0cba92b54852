/**
 * A USPTO status code (`status-code`, Table 1 of the Trademark Applications documentation) as a
 * Marque status. The primary status comes from the table's own Live/Dead column, never from code
 * ranges (410 and 413 are Live, 610 and 632 Dead): Live/Registered → active, other Live →
 * pending, Dead → inactive, Indifferent or a code missing from the table → unknown. The stage,
 * reason and challenge come from the code families below (research/ingestion.md §6); a code no
 * family lists takes its stage from the Live/Dead column's second part. The raw code and its
 * wording are kept as `office_status`.
 */
import type { ChallengeState, StatusPrimary, StatusReason, StatusStage, TrademarkStatus } from '../../../domain/records';
import type { UsptoCodeTables } from './code-tables';

interface Family {
  codes: (code: number) => boolean;
  stage: StatusStage;
  reason: StatusReason | null;
  challenge?: ChallengeState;
}

const oneOf =
  (...codes: number[]) =>
  (code: number) =>
    codes.includes(code);
const between = (from: number, to: number) => (code: number) => code >= from && code <= to;

/** Code families, first match wins. */
const FAMILIES: readonly Family[] = [
  { codes: oneOf(601, 605), stage: 'withdrawn', reason: 'withdrawn_by_applicant' },
  { codes: oneOf(600, 602, 606, 607), stage: 'abandoned', reason: 'abandoned_no_response' },
  { codes: oneOf(603, 632, 901), stage: 'refused', reason: null },
  { codes: oneOf(604), stage: 'refused', reason: 'refused_relative_grounds' },
  { codes: oneOf(608, 609, 610, 612, 614, 618), stage: 'abandoned', reason: null },
  { codes: oneOf(616, 672, 692, 693, 694, 762, 763, 764, 765, 766, 771, 772, 794, 803, 973), stage: 'examining', reason: null },
  { codes: oneOf(620, 622, 715, 969, 970), stage: 'unknown', reason: 'unknown' },
  { codes: oneOf(624, 625, 700, 701, 702, 703, 704, 705, 706, 707, 708, 717, 739, 740, 778, 780), stage: 'registered', reason: 'registration_in_force' },
  { codes: oneOf(800), stage: 'registered', reason: 'renewed' },
  { codes: oneOf(626, 713, 714, 783), stage: 'cancelled', reason: null },
  // Sections 16A and 16B: expungement and reexamination, cancellations for non-use by definition.
  { codes: oneOf(781, 782), stage: 'cancelled', reason: 'cancelled_non_use' },
  { codes: oneOf(709, 710), stage: 'cancelled', reason: 'cancelled_no_declaration_of_use' },
  { codes: oneOf(711), stage: 'surrendered', reason: 'surrendered_by_owner' },
  { codes: oneOf(712), stage: 'invalidated', reason: 'invalidated_by_decision' },
  { codes: oneOf(630, 631), stage: 'filed', reason: 'under_examination' },
  { codes: between(638, 668), stage: 'examining', reason: 'under_examination' },
  // A notice of allowance withdrawn or cancelled sends the application back to examination.
  { codes: oneOf(689, 690), stage: 'examining', reason: 'under_examination' },
  { codes: between(680, 682), stage: 'pending_publication', reason: 'awaiting_publication' },
  { codes: oneOf(686, 802), stage: 'opposition_period', reason: 'in_opposition_period' },
  { codes: oneOf(774, 801), stage: 'pending_opposition', reason: 'opposed', challenge: 'opposition_pending' },
  // 773: the extension of time to oppose ended without an opposition, as 775 after one.
  { codes: oneOf(773, 775, 777, 818, 819), stage: 'pending_issuance', reason: null },
  { codes: oneOf(779), stage: 'refused', reason: 'refused_relative_grounds' },
  { codes: oneOf(688, 718, 719, 720, 721, 722, 724, 725, 730, 731, 732, 733, 734), stage: 'allowed', reason: null },
  { codes: between(744, 757), stage: 'allowed', reason: null },
  { codes: between(806, 825), stage: 'allowed', reason: null },
  { codes: oneOf(760, 804), stage: 'examining', reason: null, challenge: 'appeal_pending' },
  { codes: oneOf(790), stage: 'pending_cancellation', reason: null, challenge: 'cancellation_pending' },
  { codes: oneOf(900), stage: 'expired', reason: 'expired_not_renewed' },
  { codes: oneOf(968), stage: 'withdrawn', reason: null },
];

function familyOf(code: number): Family | undefined {
  return FAMILIES.find((family) => family.codes(code));
}

const STAGE_BY_LIVE_DEAD: ReadonlyArray<[prefix: string, stage: StatusStage]> = [
  ['Dead/Abandoned', 'abandoned'],
  ['Dead/Cancelled', 'cancelled'],
  ['Dead/Expired', 'expired'],
  ['Dead', 'abandoned'],
  ['Live/Registered', 'registered'],
  ['Live', 'examining'],
];

export function primaryOf(liveDead: string | null): StatusPrimary {
  if (liveDead === null) return 'unknown';
  if (liveDead.startsWith('Live/Registered')) return 'active';
  if (liveDead.startsWith('Live')) return 'pending';
  if (liveDead.startsWith('Dead')) return 'inactive';
  return 'unknown';
}

/**
 * The status of a record with this status code and these pending-proceeding flags
 * (`opposition-pending-in`, `cancellation-pending-in`); `code` null: no status code at all.
 */
export function usptoStatus(
  code: string | null,
  flags: { oppositionPending: boolean; cancellationPending: boolean },
  tables: UsptoCodeTables,
): TrademarkStatus {
  const entry = code === null ? undefined : tables.statuses.get(code);
  const liveDead = entry?.liveDead ?? null;
  const family = code === null || !/^\d{3}$/.test(code) ? undefined : familyOf(Number(code));
  const stage = family?.stage ?? STAGE_BY_LIVE_DEAD.find(([prefix]) => liveDead?.startsWith(prefix))?.[1] ?? 'unknown';
  const challenges = new Set<ChallengeState>(family?.challenge ? [family.challenge] : []);
  if (flags.oppositionPending) challenges.add('opposition_pending');
  if (flags.cancellationPending) challenges.add('cancellation_pending');
  return {
    primary: primaryOf(liveDead),
    stage,
    reason: family ? family.reason : stage === 'unknown' ? 'unknown' : null,
    challenge_states: [...challenges],
    office_status: code === null ? null : { code, description: entry?.description ?? null },
  };
}
