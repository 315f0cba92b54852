/**
 * Simulates one mark's life at its office, step by step in date order: filing, examination,
 * publication, opposition, allowance, registration, maintenance, renewal, challenges and death.
 * Every step records the events it produced and the mark's state after it; the trademark record
 * is the last state, and the change history is the difference between observed states.
 */
import type { ChallengeState, ProceedingStatus, ProceedingType, StatusReason, StatusStage } from '../../../domain/records';
import { addMonths, addYears, TODAY } from './dates';
import { declarationsOwed, firstExpiry, nonUseYears, type OfficeProfile, oppositionEnd, renewedExpiry } from './offices';
import { type Random } from './random';

/** The last day anything may happen on (the generator's today is not yet over). */
export const LAST_DAY = TODAY - 1;

export interface MarkState {
  stage: StatusStage;
  reason: StatusReason | null;
  challenges: ChallengeState[];
  publication: number | null;
  registration: number | null;
  registrationNumber: string | null;
  expiry: number | null;
  termination: number | null;
  priority: number | null;
  ownerIndexes: number[];
  attorneyIndexes: number[];
  classes: number[];
}

export interface ProceedingPlan {
  type: ProceedingType;
  filedDay: number;
  decisionDay: number | null;
  status: ProceedingStatus;
  outcome: string | null;
  description: string;
  /** The opponent or petitioner (owner index); null for ex parte appeals. */
  challengerIndex: number | null;
  contestedClasses: number[];
}

export interface PlannedEvent {
  day: number;
  code: string;
  proceeding: ProceedingPlan | null;
}

export interface Step {
  day: number;
  state: MarkState;
  correction: boolean;
}

export type MarkKind = 'national' | 'designation' | 'international';

export interface LifecycleInput {
  office: OfficeProfile;
  kind: MarkKind;
  filingDay: number;
  /** Designations and IRs: the IR date, from which the term runs. */
  internationalDay: number | null;
  priorityDay: number | null;
  /** True when the priority claim is recorded only by a later correction. */
  priorityCorrected: boolean;
  ownerIndexes: number[];
  attorneyIndexes: number[];
  classes: number[];
  /** Renewal decision per ten-year cycle (shared by a Madrid family); missing cycles are drawn. */
  renewals: readonly boolean[];
  /** Chance of an opposition (higher for near-duplicates of an earlier mark). */
  oppositionChance: number;
  /** Owner of the earlier conflicting mark, the natural opponent; null: pick one. */
  conflictOwnerIndex: number | null;
}

export interface LifecycleHooks {
  registrationNumber(day: number): string;
  anyOwnerIndex(): number;
  assignee(current: readonly number[]): number[];
  attorneyFor(ownerIndex: number): number[];
}

export interface Lifecycle {
  steps: Step[];
  events: PlannedEvent[];
  proceedings: ProceedingPlan[];
}

const DEATH_STAGES: ReadonlySet<StatusStage> = new Set(['abandoned', 'withdrawn', 'surrendered', 'refused', 'cancelled', 'invalidated', 'expired']);

class Simulation {
  readonly steps: Step[] = [];
  readonly events: PlannedEvent[] = [];
  readonly proceedings: ProceedingPlan[] = [];
  private state: MarkState;
  private lastDay: number;

  constructor(
    private readonly input: LifecycleInput,
    private readonly random: Random,
    private readonly hooks: LifecycleHooks,
  ) {
    this.lastDay = input.filingDay;
    this.state = {
      stage: 'filed',
      reason: 'under_examination',
      challenges: [],
      publication: null,
      registration: null,
      registrationNumber: null,
      expiry: null,
      termination: null,
      priority: input.priorityCorrected ? null : input.priorityDay,
      ownerIndexes: input.ownerIndexes,
      attorneyIndexes: input.attorneyIndexes,
      classes: input.classes,
    };
  }

  /** Applies a state change on `day` (never before the previous step); false once past today. */
  step(day: number, codes: readonly string[], changes: Partial<MarkState>, proceeding: ProceedingPlan | null = null): boolean {
    const at = Math.max(day, this.lastDay);
    if (at > LAST_DAY) return false;
    this.lastDay = at;
    this.state = { ...this.state, ...changes };
    this.steps.push({ day: at, state: this.state, correction: false });
    for (const code of codes) this.events.push({ day: at, code, proceeding });
    return true;
  }

  /** An event that changes nothing on the record (office action, response, declaration filed…). */
  event(day: number, code: string, proceeding: ProceedingPlan | null = null): boolean {
    if (day > LAST_DAY) return false;
    this.events.push({ day, code, proceeding });
    return true;
  }

  private die(day: number, stage: StatusStage, reason: StatusReason, codes: readonly string[], proceeding: ProceedingPlan | null = null): void {
    this.step(day, codes, { stage, reason, challenges: [], termination: Math.max(day, this.lastDay) }, proceeding);
  }

  private challenger(): number {
    const owners = this.state.ownerIndexes;
    if (this.input.conflictOwnerIndex !== null && !owners.includes(this.input.conflictOwnerIndex)) return this.input.conflictOwnerIndex;
    let candidate = this.hooks.anyOwnerIndex();
    for (let attempt = 0; attempt < 5 && owners.includes(candidate); attempt++) candidate = this.hooks.anyOwnerIndex();
    return candidate;
  }

  private contested(): number[] {
    const classes = this.state.classes;
    return this.random.chance(0.6) ? classes.slice() : this.random.sample(classes, this.random.int(1, classes.length)).sort((a, b) => a - b);
  }

  private proceeding(type: ProceedingType, filedDay: number, description: string, challengerIndex: number | null): ProceedingPlan {
    const plan: ProceedingPlan = {
      type,
      filedDay,
      decisionDay: null,
      status: 'pending',
      outcome: null,
      description,
      challengerIndex,
      contestedClasses: this.contested(),
    };
    this.proceedings.push(plan);
    return plan;
  }

  /**
   * A proceeding filed on `day` with its codes and state change; null, and no proceeding, when
   * the mark died or the simulation reached today first.
   */
  private fileProceeding(
    type: ProceedingType,
    day: number,
    description: string,
    challengerIndex: number | null,
    codes: readonly string[],
    changes: Partial<MarkState>,
  ): ProceedingPlan | null {
    const plan = this.proceeding(type, day, description, challengerIndex);
    if (this.step(day, codes, changes, plan)) return plan;
    this.proceedings.pop();
    return null;
  }

  run(): void {
    const { office, kind, filingDay } = this.input;
    const isUs = office.code === 'US';
    this.step(filingDay, [kind === 'designation' ? 'international_designation_received' : 'application_filed'], {});
    if (kind === 'international') return this.runInternational();
    if (isUs) this.event(filingDay + this.random.int(2, 10), 'application_data_entered');

    let day = filingDay + (isUs ? this.random.int(90, 240) : this.random.int(20, 120));
    if (!this.step(day, ['assigned_to_examiner'], { stage: 'examining' })) return;
    if (this.random.chance(0.02)) return this.die(day + this.random.int(10, 200), 'withdrawn', 'withdrawn_by_applicant', ['withdrawn']);

    if (this.random.chance(0.35)) {
      const actionDay = day + this.random.int(0, 40);
      if (!this.event(actionDay, 'office_action_issued')) return;
      const roll = this.random.next();
      if (roll < 0.15) return this.die(addMonths(actionDay, isUs ? 6 : 4) + this.random.int(1, 30), 'abandoned', 'abandoned_no_response', ['abandoned']);
      const responseDay = actionDay + this.random.int(30, 150);
      if (!this.event(responseDay, 'response_filed')) return;
      day = responseDay + this.random.int(10, 60);
      if (roll < 0.27) {
        const refusalDay = responseDay + this.random.int(60, 120);
        if (!this.event(refusalDay, 'final_refusal_issued')) return;
        if (!this.random.chance(0.3)) return this.die(refusalDay + this.random.int(60, 210), 'refused', 'refused_absolute_grounds', ['refused']);
        const appealDay = refusalDay + this.random.int(30, 150);
        const appeal = this.fileProceeding('appeal', appealDay, 'Appeal against refusal of registration', null, ['appeal_filed'], {
          challenges: ['appeal_pending'],
        });
        if (appeal === null) return;
        const decisionDay = appealDay + this.random.int(240, 540);
        if (decisionDay > LAST_DAY) return;
        appeal.decisionDay = decisionDay;
        if (this.random.chance(0.7)) {
          appeal.status = 'decided_rejected';
          appeal.outcome = 'refusal affirmed';
          return this.die(decisionDay, 'refused', 'refused_absolute_grounds', ['appeal_terminated', 'refused'], appeal);
        }
        appeal.status = 'decided_granted';
        appeal.outcome = 'refusal reversed';
        if (!this.step(decisionDay, ['appeal_terminated'], { challenges: [] }, appeal)) return;
        day = decisionDay + this.random.int(10, 60);
      }
    }
    if (this.random.chance(0.05)) {
      if (!this.event(day, 'suspended')) return;
      day += this.random.int(60, 400);
    }

    // A partial refusal drops a class (never once a proceeding has contested the classes).
    const keptClasses =
      this.proceedings.length === 0 && this.state.classes.length > 1 && this.random.chance(0.08) ? this.state.classes.slice(0, -1) : this.state.classes;
    if (office.opposes === 'registrations') {
      // Nothing is published for opposition before registration (register publishes the registration).
      if (!this.step(day, [], { classes: keptClasses })) return;
      return this.registerAfterExamination(day);
    }
    if (!this.step(day, ['approved_for_publication'], { stage: 'pending_publication', reason: 'awaiting_publication', classes: keptClasses })) return;
    const [minDelay, maxDelay] = office.publicationDelayDays;
    const publicationDay = Math.max(day + this.random.int(14, 45), filingDay + this.random.int(minDelay, maxDelay));
    if (isUs) this.event(Math.max(day + 1, publicationDay - this.random.int(14, 21)), 'publication_notice_issued');
    const publishedStage: StatusStage = this.random.chance(0.25) ? 'published' : 'opposition_period';
    if (!this.step(publicationDay, ['published'], { stage: publishedStage, reason: 'in_opposition_period', publication: publicationDay })) return;

    const windowEnd = oppositionEnd(office, publicationDay);
    day = windowEnd;
    if (this.random.chance(this.input.oppositionChance)) {
      if (isUs && this.random.chance(0.3)) this.event(publicationDay + this.random.int(10, 29), 'opposition_extension_requested');
      const filedDay = publicationDay + this.random.int(15, Math.max(16, windowEnd - publicationDay));
      const opposition = this.fileProceeding('opposition', filedDay, 'Opposition based on an earlier mark', this.challenger(), ['opposition_filed'], {
        stage: 'pending_opposition',
        reason: 'opposed',
        challenges: ['opposition_pending'],
      });
      if (opposition === null) return;
      const decisionDay = filedDay + this.random.int(240, 900);
      if (decisionDay > LAST_DAY) {
        if (this.random.chance(0.1)) opposition.status = 'suspended';
        return;
      }
      opposition.decisionDay = decisionDay;
      const roll = this.random.next();
      if (roll < 0.35) {
        opposition.status = 'decided_granted';
        opposition.outcome = 'opposition upheld; application refused';
        return this.die(decisionDay, 'refused', 'refused_relative_grounds', ['opposition_terminated', 'refused'], opposition);
      }
      if (roll < 0.9) {
        opposition.status = roll < 0.6 ? 'decided_rejected' : roll < 0.75 ? 'withdrawn' : 'settled';
        opposition.outcome = roll < 0.6 ? 'opposition rejected' : roll < 0.75 ? 'opposition withdrawn' : 'settled by the parties';
        if (!this.step(decisionDay, ['opposition_terminated'], { stage: 'pending_issuance', reason: null, challenges: [] }, opposition)) return;
        day = decisionDay;
      } else {
        opposition.status = 'other';
        opposition.outcome = 'application withdrawn; opposition terminated';
        return this.die(decisionDay, 'withdrawn', 'withdrawn_by_applicant', ['opposition_terminated', 'withdrawn'], opposition);
      }
    }

    this.registerAfterExamination(day);
  }

  /** From the end of examination (and opposition, where it comes first) to the registration. */
  private registerAfterExamination(day: number): void {
    const { office, kind } = this.input;
    const isUs = office.code === 'US';
    let registrationDay: number;
    if (isUs && kind === 'national' && this.random.chance(0.45)) {
      const allowanceDay = day + this.random.int(30, 70);
      if (!this.step(allowanceDay, ['notice_of_allowance_issued'], { stage: 'allowed', reason: null })) return;
      const extensions = this.random.int(0, 4);
      for (let i = 1; i <= extensions; i++) {
        const extensionDay = addMonths(allowanceDay, 6 * i) - this.random.int(1, 20);
        if (!this.event(extensionDay, 'use_extension_requested')) return;
        this.event(extensionDay + this.random.int(3, 20), 'use_extension_granted');
      }
      if (this.random.chance(0.35))
        return this.die(addMonths(allowanceDay, 6 * (extensions + 1)) + this.random.int(1, 40), 'abandoned', 'abandoned_no_response', ['abandoned']);
      const useDay = addMonths(allowanceDay, 6 * extensions) + this.random.int(10, 170);
      if (!this.event(useDay, 'statement_of_use_filed')) return;
      const acceptedDay = useDay + this.random.int(30, 90);
      if (!this.step(acceptedDay, ['statement_of_use_accepted'], { stage: 'pending_issuance', reason: null })) return;
      registrationDay = acceptedDay + this.random.int(14, 45);
    } else if (this.state.stage !== 'pending_issuance' && ['JP', 'KR', 'BR', 'CN'].includes(office.code)) {
      // Offices that decide to register and then wait for the registration fee.
      const decisionDay = day + this.random.int(5, 30);
      if (!this.step(decisionDay, [], { stage: 'pending_issuance', reason: null })) return;
      registrationDay = decisionDay + this.random.int(20, 70);
    } else {
      registrationDay = day + this.random.int(10, 90);
    }
    this.register(registrationDay, this.hooks.registrationNumber(registrationDay));
  }

  private runInternational(): void {
    const { filingDay } = this.input;
    const noticeDay = filingDay + this.random.int(20, 80);
    this.register(noticeDay, this.hooks.registrationNumber(noticeDay), filingDay);
  }

  /** Enters the mark on the register and runs its maintenance until it dies or today is reached. */
  private register(noticeDay: number, registrationNumber: string, registrationDate: number = Math.max(noticeDay, this.lastDay)): void {
    const { office, kind, filingDay, internationalDay } = this.input;
    const expiry = firstExpiry(office, filingDay, registrationDate, internationalDay);
    const changes: Partial<MarkState> = {
      stage: 'registered',
      reason: 'registration_in_force',
      challenges: [],
      registration: registrationDate,
      registrationNumber,
      expiry,
    };
    if (!this.step(noticeDay, ['registered'], changes)) return;
    if (office.opposes === 'registrations' && kind !== 'international') {
      // The gazette publishes the registration weeks later; its opposition period runs from then.
      const publicationDay = registrationDate + this.random.int(14, 60);
      if (!this.step(publicationDay, ['published'], { publication: publicationDay })) return;
      if (kind === 'national' && !this.opposeRegistration(publicationDay)) return;
    }
    if (this.input.priorityCorrected && this.random.chance(0.7)) this.correctPriority(noticeDay);
    this.maintain(registrationDate, kind);
  }

  /**
   * An opposition to a published national registration (JP, DE, CH; the rule corpus has no
   * post-registration rule for their Madrid designations): the mark stays on the register while
   * it runs; upheld, the registration is revoked from the start (invalidated). False when the mark
   * died or the simulation reached today.
   */
  private opposeRegistration(publicationDay: number): boolean {
    if (!this.random.chance(this.input.oppositionChance)) return true;
    const windowEnd = oppositionEnd(this.input.office, publicationDay);
    const filedDay = publicationDay + this.random.int(15, windowEnd - publicationDay);
    const opposition = this.fileProceeding(
      'opposition',
      filedDay,
      'Opposition to the registration based on an earlier mark',
      this.challenger(),
      ['opposition_filed'],
      {
        challenges: ['opposition_pending'],
      },
    );
    if (opposition === null) return false;
    const decisionDay = filedDay + this.random.int(240, 900);
    if (decisionDay > LAST_DAY) return false;
    opposition.decisionDay = decisionDay;
    if (this.random.chance(0.3)) {
      opposition.status = 'decided_granted';
      opposition.outcome = 'opposition upheld; registration revoked';
      this.die(decisionDay, 'invalidated', 'invalidated_by_decision', ['opposition_terminated', 'cancelled'], opposition);
      return false;
    }
    const roll = this.random.next();
    opposition.status = roll < 0.7 ? 'decided_rejected' : roll < 0.85 ? 'withdrawn' : 'settled';
    opposition.outcome = roll < 0.7 ? 'opposition rejected; registration maintained' : roll < 0.85 ? 'opposition withdrawn' : 'settled by the parties';
    return this.step(decisionDay, ['opposition_terminated'], { challenges: [] }, opposition);
  }

  /** A later correction adds the priority claim the first observation lacked. */
  private correctPriority(afterDay: number): void {
    const day = afterDay + this.random.int(20, 400);
    if (day > LAST_DAY) return;
    this.lastDay = day;
    this.state = { ...this.state, priority: this.input.priorityDay };
    this.steps.push({ day, state: this.state, correction: true });
  }

  private maintain(registrationDay: number, kind: MarkKind): void {
    const { office } = this.input;
    type Action = 'declaration' | 'assignment' | 'representative' | 'cancellation' | 'surrender';
    const actions: Array<{ day: number; action: Action; graceEnd?: number }> = [];
    for (const owed of declarationsOwed(office, kind === 'designation', registrationDay, LAST_DAY)) {
      actions.push({ day: owed.opens + this.random.int(0, owed.lastDays), action: 'declaration', graceEnd: owed.graceEnd });
    }
    if (kind !== 'international' && this.random.chance(0.07)) actions.push({ day: registrationDay + this.random.int(60, 4000), action: 'assignment' });
    if (this.random.chance(0.05)) actions.push({ day: registrationDay + this.random.int(60, 4000), action: 'representative' });
    if (kind !== 'international' && this.random.chance(this.input.conflictOwnerIndex !== null ? 0.04 : 0.008)) {
      actions.push({ day: addYears(registrationDay, nonUseYears(office)) + this.random.int(0, 2000), action: 'cancellation' });
    }
    if (this.random.chance(0.006)) actions.push({ day: registrationDay + this.random.int(200, 5000), action: 'surrender' });
    actions.sort((a, b) => a.day - b.day);

    let cycle = 0;
    let renewed = false;
    for (;;) {
      const expiry = this.state.expiry ?? LAST_DAY + 1;
      const next = actions[0];
      if (next !== undefined && next.day < expiry) {
        actions.shift();
        if (next.day > LAST_DAY) return;
        if (!this.act(next.action, next.day, next.graceEnd ?? next.day, renewed)) return;
        continue;
      }
      if (expiry > LAST_DAY) return;
      const renew = this.input.renewals[cycle] ?? this.random.chance(0.8);
      cycle++;
      if (!renew) {
        const graceEnd = addMonths(expiry, 6);
        if (graceEnd <= LAST_DAY) this.step(graceEnd, ['expired'], { stage: 'expired', reason: 'expired_not_renewed', challenges: [], termination: expiry });
        return;
      }
      this.event(expiry - this.random.int(30, 180), 'renewal_filed');
      renewed = true;
      if (
        !this.step(expiry - this.random.int(0, 25), ['renewed'], {
          expiry: renewedExpiry(this.input.office, expiry),
          reason: this.state.stage === 'registered' ? 'renewed' : this.state.reason,
        })
      )
        return;
    }
  }

  /**
   * Runs one maintenance action (a declaration late after `graceEnd`, when the office records the
   * cancellation a month to half a year later); false when the mark died or the simulation reached today.
   */
  private act(action: string, day: number, graceEnd: number, renewed: boolean): boolean {
    switch (action) {
      case 'declaration': {
        if (this.random.chance(0.88)) {
          this.event(day, 'declaration_of_use_filed');
          this.event(day + this.random.int(20, 90), 'declaration_of_use_accepted');
          return true;
        }
        this.die(graceEnd + this.random.int(30, 200), 'cancelled', 'cancelled_no_declaration_of_use', ['cancelled']);
        return false;
      }
      case 'assignment':
        return this.step(day, ['assignment_recorded'], { ownerIndexes: this.hooks.assignee(this.state.ownerIndexes) });
      case 'representative':
        return this.step(day, ['representative_changed'], { attorneyIndexes: this.hooks.attorneyFor(this.state.ownerIndexes[0] as number) });
      case 'surrender':
        this.die(day, 'surrendered', 'surrendered_by_owner', ['surrendered']);
        return false;
      default:
        return this.cancellation(day, renewed);
    }
  }

  private cancellation(day: number, renewed: boolean): boolean {
    const invalidity = ['EM', 'GB', 'DE', 'FR', 'ES', 'CH'].includes(this.input.office.code) && this.random.chance(0.4);
    const plan = this.fileProceeding(
      'cancellation',
      day,
      invalidity ? 'Application for a declaration of invalidity' : 'Revocation for non-use',
      this.challenger(),
      ['cancellation_requested'],
      { stage: 'pending_cancellation', challenges: [invalidity ? 'invalidity_pending' : 'cancellation_pending'] },
    );
    if (plan === null) return false;
    const decisionDay = day + this.random.int(200, 800);
    if (decisionDay > LAST_DAY) return false;
    plan.decisionDay = decisionDay;
    if (this.random.chance(0.4)) {
      plan.status = 'decided_granted';
      plan.outcome = invalidity ? 'registration declared invalid' : 'registration revoked';
      if (invalidity) this.die(decisionDay, 'invalidated', 'invalidated_by_decision', ['cancelled'], plan);
      else this.die(decisionDay, 'cancelled', 'cancelled_non_use', ['cancelled'], plan);
      return false;
    }
    const roll = this.random.next();
    plan.status = roll < 0.6 ? 'decided_rejected' : roll < 0.8 ? 'withdrawn' : 'settled';
    plan.outcome = roll < 0.6 ? 'request rejected' : roll < 0.8 ? 'request withdrawn' : 'settled by the parties';
    return this.step(decisionDay, [], { stage: 'registered', reason: renewed ? 'renewed' : 'registration_in_force', challenges: [] });
  }

  /**
   * A mark left published by the simulation (its registration would come after today) whose
   * opposition period ended before today awaits its registration from the day after: no office
   * but the USPTO, which keeps its published status until the allowance or registration (and whose
   * period extensions run up to 180 days), shows a mark in opposition once the period is over.
   */
  settleAfterOpposition(): void {
    const { office } = this.input;
    const published = this.state.publication;
    if (office.code === 'US' || published === null || !['published', 'opposition_period'].includes(this.state.stage)) return;
    const closed = oppositionEnd(office, published) + 1;
    if (closed <= LAST_DAY) this.step(closed, [], { stage: 'pending_issuance', reason: null });
  }

  /** Rarely the office reports a status we cannot map: the mark ends as `unknown`. */
  maybeUnknown(): void {
    if (DEATH_STAGES.has(this.state.stage) || !this.random.chance(0.003)) return;
    this.step(Math.max(this.lastDay, LAST_DAY - this.random.int(0, 300)), [], { stage: 'unknown', reason: 'unknown', challenges: [] });
  }
}

export function simulateLifecycle(input: LifecycleInput, random: Random, hooks: LifecycleHooks): Lifecycle {
  const simulation = new Simulation(input, random, hooks);
  simulation.run();
  simulation.settleAfterOpposition();
  simulation.maybeUnknown();
  simulation.events.sort((a, b) => a.day - b.day);
  return { steps: simulation.steps, events: simulation.events, proceedings: simulation.proceedings };
}
