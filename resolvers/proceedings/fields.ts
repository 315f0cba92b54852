/**
 * Field resolvers of the `Proceeding` type (parent: the stored ProceedingDoc). The contested
 * marks load through the request's DataLoader, so a page of proceedings costs one batch.
 */
import type { ProceedingDoc } from '../../domain/records';
import type { RequestContext } from '../context';
import { loadPresent } from '../loaders';
import { officeByCode } from '../../domain/offices';

const MS_PER_DAY = 86_400_000;

export const proceedingFieldResolvers = {
  id: (doc: ProceedingDoc) => doc._id,
  object: () => 'proceeding',
  office: (doc: ProceedingDoc) => {
    const office = officeByCode(doc.office_code);
    return { code: doc.office_code, name: office?.name ?? null, jurisdiction_code: office?.jurisdiction_code ?? null };
  },
  duration_days: (doc: ProceedingDoc) =>
    doc.decision_date === null ? null : Math.round((Date.parse(`${doc.decision_date}T00:00:00Z`) - Date.parse(`${doc.filed_date}T00:00:00Z`)) / MS_PER_DAY),
  trademarks: async (doc: ProceedingDoc, _args: unknown, ctx: RequestContext) => loadPresent(ctx.loaders.trademarks, doc.trademark_ids),
};
