/**
 * The `opposition_window` member of trademark detail (also what watch diagnostics and alerts
 * show), without booting the app: which rule a mark's window runs from, and the window itself.
 * Every expected date is a hand calculation from the rule's terms in data/rules.json, written
 * beside it; weekdays and holidays were looked up in a calendar, not taken from the code.
 */
import { expect } from 'chai';
import type { TrademarkDoc } from '../../../domain/records';
import { oppositionWindowFor } from '../../../resolvers/trademarks/opposition-window';

/** The fields the window reads; the rest of the record does not matter to it. */
function mark(fields: Pick<TrademarkDoc, 'office_code' | 'publication_date' | 'registration_date'> & Partial<TrademarkDoc>): TrademarkDoc {
  return { _id: 'tm_test', filing_route: 'national', filing_date: '2015-01-05', ...fields } as TrademarkDoc;
}

// 2025-06-01 12:00 in Tokyo, 05:00 in Berlin and Zurich, still 2025-05-31 (23:00) in New York.
const NOW = new Date('2025-06-01T03:00:00Z');

describe('resolvers/trademarks: opposition_window', () => {
  describe('offices whose only domestic rule is registration_publication', () => {
    it('JP, registered 2016 (the audit case): closed, from the registration, not no_rule', () => {
      // JP domestic rule: registration_publication, window_months 2, no offset, day_after, calendar JP.
      // The record's publication (2015-08-04) is the application's, before the registration, so
      // the registration date 2016-03-11 stands in for the gazette publication (approximate).
      // Opens 2016-03-11 + 1 day = 2016-03-12. Closes 2016-03-11 + 2 months = 2016-05-11, a
      // Wednesday after Golden Week: no roll. As of 2025-06-01 (Tokyo): closed;
      // 2016-05-11 -> 2025-05-11 is 9 years with two leap days (2020, 2024) = 9*365 + 2 = 3287
      // days, + 21 days to 2025-06-01 = 3308, so days_remaining -3308.
      const window = oppositionWindowFor(mark({ office_code: 'JP', publication_date: '2015-08-04', registration_date: '2016-03-11' }), NOW);
      expect(window).to.deep.equal({
        status: 'closed',
        office_code: 'JP',
        filing_route: 'domestic',
        trigger_event: 'registration_publication',
        publication_date: '2016-03-11',
        window_opens: '2016-03-12',
        window_closes: '2016-05-11',
        window_closes_nominal: '2016-05-11',
        extended_window_closes: null,
        must_act_by: '2016-05-11',
        days_remaining: -3308,
        approximate: true,
      });
    });

    it('JP, registered 2025-04-30 and not gazetted in the record: open', () => {
      // Opens 2025-05-01; closes 2025-04-30 + 2 months = 2025-06-30, a Monday. As of 2025-06-01:
      // open, 29 days remaining.
      const window = oppositionWindowFor(mark({ office_code: 'JP', publication_date: '2024-12-10', registration_date: '2025-04-30' }), NOW);
      expect(window).to.include({
        status: 'open',
        trigger_event: 'registration_publication',
        publication_date: '2025-04-30',
        window_opens: '2025-05-01',
        window_closes: '2025-06-30',
        days_remaining: 29,
        approximate: true,
      });
    });

    it("JP, the record's publication is the registration's (on or after the registration date): exact, rolled off a holiday", () => {
      // Registered 2025-04-30, gazetted 2025-05-20. Opens 2025-05-21; closes 2025-05-20 + 2 months
      // = 2025-07-20, a Sunday; Monday 2025-07-21 is Marine Day (third Monday of July), so the
      // close rolls to Tuesday 2025-07-22. As of 2025-06-01: 29 days to 06-30 + 22 = 51.
      const window = oppositionWindowFor(mark({ office_code: 'JP', publication_date: '2025-05-20', registration_date: '2025-04-30' }), NOW);
      expect(window).to.include({
        status: 'open',
        trigger_event: 'registration_publication',
        publication_date: '2025-05-20',
        window_opens: '2025-05-21',
        window_closes_nominal: '2025-07-20',
        window_closes: '2025-07-22',
        must_act_by: '2025-07-22',
        days_remaining: 51,
        approximate: false,
      });
    });

    it('JP, published application not yet registered: not_published, awaiting the registration', () => {
      const window = oppositionWindowFor(mark({ office_code: 'JP', publication_date: '2025-03-04', registration_date: null }), NOW);
      expect(window).to.include({
        status: 'not_published',
        trigger_event: 'registration_publication',
        publication_date: null,
        window_closes: null,
        must_act_by: null,
      });
    });

    it('DE, registered 2016-02-02 and published 2016-03-04: closed, from the publication, rolled off a Saturday', () => {
      // DE domestic rule: registration_publication, window_months 3, day_after, calendar DE-BY.
      // The publication follows the registration, so it is the registration's: exact.
      // Opens 2016-03-05; closes 2016-03-04 + 3 months = 2016-06-04, a Saturday; Monday
      // 2016-06-06 is no Bavarian holiday (Whit Monday was 05-16, Corpus Christi 05-26), so
      // 2016-06-06. As of 2025-06-01 (Berlin): 2016-06-06 -> 2025-06-06 = 9*365 + 2 = 3287,
      // minus 5 days = 3282, so -3282.
      const window = oppositionWindowFor(mark({ office_code: 'DE', publication_date: '2016-03-04', registration_date: '2016-02-02' }), NOW);
      expect(window).to.deep.equal({
        status: 'closed',
        office_code: 'DE',
        filing_route: 'domestic',
        trigger_event: 'registration_publication',
        publication_date: '2016-03-04',
        window_opens: '2016-03-05',
        window_closes: '2016-06-06',
        window_closes_nominal: '2016-06-04',
        extended_window_closes: null,
        must_act_by: '2016-06-06',
        days_remaining: -3282,
        approximate: false,
      });
    });

    it('CH, registered 2023-11-30 with no publication date: closed, from the registration date', () => {
      // CH domestic rule: registration_publication, window_months 3, day_after, calendar CH-BE.
      // Opens 2023-12-01; closes 2023-11-30 + 3 months = 2024-02-29 (a leap year), a Thursday.
      // As of 2025-06-01: 2024-02-29 -> 2025-02-28 = 365, + 31 + 30 + 31 + 1 = 458, so -458.
      const window = oppositionWindowFor(mark({ office_code: 'CH', publication_date: null, registration_date: '2023-11-30' }), NOW);
      expect(window).to.include({
        status: 'closed',
        trigger_event: 'registration_publication',
        publication_date: '2023-11-30',
        window_opens: '2023-12-01',
        window_closes: '2024-02-29',
        days_remaining: -458,
        approximate: true,
      });
    });
  });

  describe('offices with an application_publication rule: unchanged', () => {
    it('US, published 2025-05-06: open, 30 days from publication, registration date ignored', () => {
      // US domestic rule: application_publication, window_days 30, date_of_publication, calendar
      // US, common extension 30 days. Opens 2025-05-06; closes 2025-05-06 + 30 days = 2025-06-05,
      // a Thursday. As of 2025-05-31 (New York): 5 days. Extension: 2025-06-05 + 30 days =
      // 2025-07-05, a Saturday (Friday 07-04 a federal holiday), rolled to Monday 2025-07-07.
      const expected = {
        status: 'open',
        office_code: 'US',
        filing_route: 'domestic',
        trigger_event: 'application_publication',
        publication_date: '2025-05-06',
        window_opens: '2025-05-06',
        window_closes: '2025-06-05',
        window_closes_nominal: '2025-06-05',
        extended_window_closes: '2025-07-07',
        must_act_by: '2025-06-05',
        days_remaining: 5,
        approximate: false,
      };
      expect(oppositionWindowFor(mark({ office_code: 'US', publication_date: '2025-05-06', registration_date: null }), NOW)).to.deep.equal(expected);
      expect(oppositionWindowFor(mark({ office_code: 'US', publication_date: '2025-05-06', registration_date: '2025-05-27' }), NOW)).to.deep.equal(expected);
    });

    it('a mark without a publication date is not_published; an office without a rule is no_rule', () => {
      expect(oppositionWindowFor(mark({ office_code: 'US', publication_date: null, registration_date: null }), NOW)).to.include({
        status: 'not_published',
        trigger_event: 'application_publication',
      });
      expect(oppositionWindowFor(mark({ office_code: 'ZZ', publication_date: '2025-05-06', registration_date: '2025-05-27' }), NOW)).to.include({
        status: 'no_rule',
        trigger_event: 'application_publication',
        window_closes: null,
        approximate: false,
      });
    });
  });

  describe('Madrid designations', () => {
    it('EM: from the designation publication, one month offset (unchanged)', () => {
      // EM madrid_designation rule: international_designation_publication, offset 1 month,
      // window_months 3, day_after. Published 2025-01-07: opens 2025-02-07 + 1 day = 2025-02-08;
      // closes 2025-01-07 + 4 months = 2025-05-07 (a Wednesday). Closed as of 2025-06-01.
      const window = oppositionWindowFor(mark({ office_code: 'EM', filing_route: 'madrid', publication_date: '2025-01-07', registration_date: null }), NOW);
      expect(window).to.include({
        status: 'closed',
        filing_route: 'madrid_designation',
        trigger_event: 'international_designation_publication',
        window_opens: '2025-02-08',
        window_closes: '2025-05-07',
      });
    });

    it("US: the office's madrid_designation rule runs from the USPTO publication (application_publication)", () => {
      // Same terms as the domestic US rule: 2025-05-06 + 30 days = 2025-06-05; open, 5 days.
      const window = oppositionWindowFor(mark({ office_code: 'US', filing_route: 'madrid', publication_date: '2025-05-06', registration_date: null }), NOW);
      expect(window).to.include({
        status: 'open',
        filing_route: 'madrid_designation',
        trigger_event: 'application_publication',
        window_opens: '2025-05-06',
        window_closes: '2025-06-05',
        days_remaining: 5,
      });
    });

    it('JP: after protection is granted (registration_publication)', () => {
      // Protection granted 2025-04-30, no later publication in the record: as the JP domestic
      // case, opens 2025-05-01, closes 2025-06-30 (a Monday), open with 29 days.
      const window = oppositionWindowFor(mark({ office_code: 'JP', filing_route: 'madrid', publication_date: null, registration_date: '2025-04-30' }), NOW);
      expect(window).to.include({
        status: 'open',
        filing_route: 'madrid_designation',
        trigger_event: 'registration_publication',
        window_opens: '2025-05-01',
        window_closes: '2025-06-30',
        days_remaining: 29,
        approximate: true,
      });
    });
  });
});
