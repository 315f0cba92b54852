/**
 * Response shape of GET /v1/analytics/offices/{code} (spec: Office analytics).
 */
import { arrayOf, constant, int, nullableDate, nullableNum, num, object, str, timestamp, type JsonSchema, named } from './json-schema';

export const officeAnalyticsSchema: JsonSchema = named(
  'OfficeAnalytics',
  object(
    {
      object: constant('office_analytics'),
      code: str('Uppercase ST.3 office code.'),
      total_marks: int('Marks of the office in the catalog.'),
      registered_count: int('Registrations in force: status.stage registered or pending_cancellation.'),
      pending_count: int('status.primary pending.'),
      expired_count: int('status.stage expired.'),
      cancelled_count: int('status.stage cancelled or invalidated.'),
      abandoned_count: int('status.stage abandoned or withdrawn.'),
      registration_rate: nullableNum(
        'Marks ever registered ÷ (those + marks that ended abandoned, withdrawn or refused unregistered); null when none has concluded.',
      ),
      jurisdiction_count: int('Member states covered (regional offices), jurisdictions designated (WO), else jurisdictions of the marks.'),
      earliest_filing: nullableDate(),
      latest_filing: nullableDate(),
      top_classes: {
        ...arrayOf(object({ class: int('Nice class.'), count: int('Marks listing the class.'), pct: num('count ÷ total_marks, 0 to 1.') })),
        type: ['array', 'null'],
        description: 'The ten most frequent Nice classes; null when the office has no marks.',
      },
      yearly_trend: {
        ...arrayOf(
          object({
            year: int(),
            filed: int('Filed that year.'),
            registered: int('Registered that year.'),
            abandoned: int('Now abandoned or withdrawn, ended that year.'),
          }),
        ),
        type: ['array', 'null'],
        description: 'Per calendar year, oldest first; null when the office has no marks.',
      },
      stats_computed_at: timestamp('When these figures were counted (they are cached about ten minutes).'),
    },
    'Office analytics.',
  ),
);
