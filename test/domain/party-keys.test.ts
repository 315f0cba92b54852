import { expect } from 'chai';
import { countryCodeOfName } from '../../domain/countries';
import { attorneyDedupeKey, firmDedupeKey, ownerDedupeKey } from '../../domain/party-keys';
import { canonicalName } from '../../domain/party-names';

describe('domain/party-keys: when two records name the same party', () => {
  it('an organization is its canonical name in its country, whatever its street or legal-form spelling', () => {
    const rd = ownerDedupeKey('Brand Properties, LLC', 'corporation', { country_code: 'US', city: 'Atlanta', postcode: '30305' });
    const road = ownerDedupeKey('BRAND PROPERTIES LLC', 'corporation', { country_code: 'US', city: 'Atlanta', postcode: '30306' });
    expect(rd).to.equal('org|brand properties|US');
    expect(road).to.equal(rd);
    expect(ownerDedupeKey('Brand Properties, LLC', 'corporation', { country_code: 'GB' })).to.not.equal(rd);
  });

  it('an individual is never matched by name alone: name, country and postcode area (else city)', () => {
    const a = ownerDedupeKey('Pope, Christopher', 'individual', { country_code: 'US', city: 'Hermosa Beach', postcode: '90254' });
    expect(a).to.equal('person|pope christopher|US|90254');
    expect(ownerDedupeKey('POPE, CHRISTOPHER', 'individual', { country_code: 'US', city: 'HERMOSA BEACH', postcode: '90254-1234' })).to.equal(a);
    expect(ownerDedupeKey('Pope, Christopher', 'individual', { country_code: 'US', city: 'Boston', postcode: '02108' })).to.not.equal(a);
    expect(ownerDedupeKey('Nguyen Quang Huy', 'individual', { country_code: 'VN', city: 'Hanoi', postcode: null })).to.equal(
      'person|nguyen quang huy|VN|hanoi',
    );
  });

  it('a firm is its canonical name in its country; an attorney their name within their firm', () => {
    const firm = firmDedupeKey('Troutman Pepper Hamilton Sanders LLP', 'US');
    expect(firm).to.equal('firm|troutman pepper hamilton sanders|US');
    expect(attorneyDedupeKey('Austin Padgett', firm, 'US')).to.equal(`attorney|austin padgett|${firm}`);
    expect(attorneyDedupeKey('Austin Padgett', null, 'US')).to.equal('attorney|austin padgett|US');
  });

  it('strips trailing legal forms the same way for generated and real names', () => {
    expect(canonicalName('Zorvex Technologies, Inc.')).to.equal('zorvex technologies');
    expect(canonicalName('MERCHANTS TRADING CO.INC.')).to.equal('merchants trading');
    expect(canonicalName('JENSEN, PETER A/S')).to.equal('jensen peter');
    expect(canonicalName('LLC')).to.equal('llc');
  });
});

describe('domain/countries: country names as offices write them', () => {
  it('reads English names in any case and the formal names registers use', () => {
    expect(countryCodeOfName('UNITED STATES')).to.equal('US');
    expect(countryCodeOfName('United States')).to.equal('US');
    expect(countryCodeOfName('DENMARK')).to.equal('DK');
    expect(countryCodeOfName('Korea, Republic of')).to.equal('KR');
    expect(countryCodeOfName('Viet Nam')).to.equal('VN');
    expect(countryCodeOfName('NEW YORK')).to.equal(null);
  });
});
