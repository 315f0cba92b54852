/**
 * Proceeding records (oppositions, cancellations, appeals) from the plans a mark's lifecycle made:
 * office-style proceeding numbers, parties referencing owners, contested classes.
 */
import { catalogId } from '../../../domain/ids';
import type { OwnerDoc, PartyRole, ProceedingDoc, ProceedingParty, ProceedingType } from '../../../domain/records';
import { isoDate } from './dates';
import { observationDay } from './history';
import type { ProceedingPlan } from './lifecycle';
import { continuous, type NumberAllocator, type NumberSeries, pad, yearly } from './offices';
import { type Random } from './random';

const TYPE_CODES: Partial<Record<ProceedingType, string>> = { opposition: 'OPP', cancellation: 'CAN', appeal: 'APL' };

/** Office numbering of proceedings where known (TTAB 91/92 numbers, EUIPO B/C/R numbers, UKIPO OP/CA). */
const PROCEEDING_SERIES: Readonly<Record<string, Partial<Record<ProceedingType, NumberSeries>>>> = {
  US: {
    opposition: continuous(String, [
      ['1990-01-01', 91080000],
      ['2026-11-01', 91300000],
    ]),
    cancellation: continuous(String, [
      ['1990-01-01', 92018000],
      ['2026-11-01', 92089000],
    ]),
  },
  EM: {
    opposition: continuous(
      (n) => `B${pad(n, 7)}`,
      [
        ['1996-04-01', 1],
        ['2026-11-01', 3260000],
      ],
    ),
    cancellation: continuous(
      (n) => `C${pad(n, 6)}`,
      [
        ['1996-04-01', 1],
        ['2026-11-01', 66000],
      ],
    ),
    appeal: [yearly('1996-04-01', 3000, (n, year) => `R${n}/${year}-${1 + (n % 5)}`)],
  },
  GB: {
    opposition: continuous(
      (n) => `OP${pad(n, 9)}`,
      [
        ['1990-01-01', 40000],
        ['2026-11-01', 440000],
      ],
    ),
    cancellation: continuous(
      (n) => `CA${pad(n, 9)}`,
      [
        ['1990-01-01', 10000],
        ['2026-11-01', 520000],
      ],
    ),
  },
};

function seriesFor(officeCode: string, type: ProceedingType): NumberSeries {
  const known = PROCEEDING_SERIES[officeCode]?.[type];
  if (known !== undefined) return known;
  const code = TYPE_CODES[type] ?? 'OTH';
  return [yearly('1990-01-01', 90000, (n, year) => `${officeCode}-${code}-${year}-${pad(n, 6)}`)];
}

/** Proceeding number: US ex parte appeals are docketed under the application serial number. */
export function proceedingNumber(allocator: NumberAllocator, random: Random, officeCode: string, plan: ProceedingPlan, applicationNumber: string): string {
  if (officeCode === 'US' && plan.type === 'appeal') return applicationNumber;
  return allocator.allocate(`${officeCode}:proceeding:${plan.type}`, seriesFor(officeCode, plan.type), plan.filedDay, random);
}

function party(owner: OwnerDoc, role: PartyRole): ProceedingParty {
  return { owner_id: owner._id, name: owner.name, role, country_code: owner.country_code };
}

export interface ProceedingContext {
  trademarkId: string;
  officeCode: string;
  number: string;
  /** Owners of the mark (respondents, or the appellant of an ex parte appeal). */
  holders: readonly OwnerDoc[];
  challenger: OwnerDoc | null;
  firstObservedDay: number;
}

export function buildProceeding(plan: ProceedingPlan, context: ProceedingContext, random: Random): ProceedingDoc {
  const parties: ProceedingParty[] = [];
  if (context.challenger !== null) parties.push(party(context.challenger, plan.type === 'opposition' ? 'opponent' : 'petitioner'));
  for (const holder of context.holders) parties.push(party(holder, context.challenger === null ? 'other' : 'respondent'));
  const createdMs = observationDay(random, plan.filedDay, context.firstObservedDay) * 86_400_000 + random.int(0, 86_399) * 1000;
  const updatedMs =
    plan.decisionDay === null
      ? createdMs
      : Math.max(createdMs, observationDay(random, plan.decisionDay, context.firstObservedDay) * 86_400_000 + random.int(0, 86_399) * 1000);
  return {
    _id: catalogId('prc_', context.officeCode, context.number),
    proceeding_type: plan.type,
    proceeding_number: context.number,
    office_code: context.officeCode,
    status: plan.status,
    filed_date: isoDate(plan.filedDay),
    decision_date: plan.decisionDay === null ? null : isoDate(plan.decisionDay),
    decision_outcome: plan.outcome,
    trademark_ids: [context.trademarkId],
    parties,
    contested_classes: plan.contestedClasses,
    description: plan.description,
    created_at: new Date(createdMs).toISOString(),
    updated_at: new Date(updatedMs).toISOString(),
  };
}
