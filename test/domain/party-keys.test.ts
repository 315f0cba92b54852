import { expect } from 'chai';
import { countryCodeOfName } from '../../domain/countries';
import { attorneyDedupeKey, firmDedupeKey, ownerDedupeKey, refoldDedupeKey } from '../../domain/party-keys';
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

  it('folds the Latin letters without a decomposition, so ØRSTED A/S and Orsted A/S are one owner', () => {
    expect(ownerDedupeKey('ØRSTED A/S', 'corporation', { country_code: 'DK' })).to.equal('org|orsted|DK');
    expect(ownerDedupeKey('Orsted A/S', 'corporation', { country_code: 'DK' })).to.equal('org|orsted|DK');
    expect(firmDedupeKey('Kromann Reumert Ærø', 'DK')).to.equal('firm|kromann reumert aero|DK');
  });

  // Keys as the fold before the Latin letter table wrote them (accents and case folded, ø, ł, æ kept).
  it('refolds a stored key to the key the party has now, kind and country kept', () => {
    expect(refoldDedupeKey('org|ørsted|DK')).to.equal('org|orsted|DK');
    expect(refoldDedupeKey('person|łukasz błaszczykowski|PL|łodz')).to.equal('person|lukasz blaszczykowski|PL|lodz');
    expect(refoldDedupeKey('person|jens ærø|DK|-')).to.equal('person|jens aero|DK|-');
    expect(refoldDedupeKey('firm|kromann reumert ærø|DK')).to.equal('firm|kromann reumert aero|DK');
    expect(refoldDedupeKey('attorney|søren ødegard|firm|kromann reumert ærø|DK')).to.equal('attorney|soren odegard|firm|kromann reumert aero|DK');
    expect(refoldDedupeKey('attorney|søren ødegard|-')).to.equal('attorney|soren odegard|-');
    // A name whose last word folds to a legal form now loses it, as the name itself would: "Ł" is "l" (S.r.l.).
    expect(refoldDedupeKey('org|mazur ł|PL')).to.equal('org|mazur|PL');
    expect(canonicalName('Mazur Ł')).to.equal('mazur');
  });

  it('leaves a key of the current fold as it is', () => {
    for (const key of [
      'org|brand properties|US',
      'person|pope christopher|US|90254',
      'attorney|austin padgett|firm|troutman pepper hamilton sanders|US',
      'org|жук|RU',
    ]) {
      expect(refoldDedupeKey(key)).to.equal(key);
    }
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
