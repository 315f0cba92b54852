/**
 * The statement-of-use facts read from a mark's prosecution history (37 C.F.R. §2.88, §2.89): the
 * notice of allowance the period runs from, the extensions granted in it, and a statement of use
 * filed that meets it.
 */
import { expect } from 'chai';
import { allowanceOf } from '../../domain/mark-deadlines';

const event = (event_type: string, event_date: string) => ({ event_type, event_date });

describe('domain/mark-deadlines: allowanceOf', () => {
  it('counts the extensions granted after the notice of allowance', () => {
    const history = [
      event('published', '2024-02-06'),
      event('notice_of_allowance_issued', '2024-04-02'),
      event('use_extension_granted', '2024-10-01'),
      event('use_extension_granted', '2025-03-30'),
    ];
    expect(allowanceOf(history)).to.deep.equal({ notice_of_allowance_date: '2024-04-02', use_extensions_granted: 2 });
  });

  it('counts from a notice issued again after one was cancelled, and the extensions since it only', () => {
    const history = [
      event('notice_of_allowance_issued', '2023-01-10'),
      event('use_extension_granted', '2023-07-01'),
      event('notice_of_allowance_issued', '2023-09-05'),
    ];
    expect(allowanceOf(history)).to.deep.equal({ notice_of_allowance_date: '2023-09-05', use_extensions_granted: 0 });
  });

  it('is met by a statement of use filed after the notice; an amendment to allege use before it does not meet it; no notice, no facts', () => {
    expect(allowanceOf([event('notice_of_allowance_issued', '2024-04-02'), event('statement_of_use_filed', '2024-08-15')])).to.equal(null);
    expect(allowanceOf([event('statement_of_use_filed', '2024-01-15'), event('notice_of_allowance_issued', '2024-04-02')])).to.deep.equal({
      notice_of_allowance_date: '2024-04-02',
      use_extensions_granted: 0,
    });
    expect(allowanceOf([event('published', '2024-02-06')])).to.equal(null);
  });
});
