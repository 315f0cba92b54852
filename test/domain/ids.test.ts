import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { catalogId, ID_PREFIXES, idKind, isWellFormedId, numberMatchKey, randomId, stableId } from '../../domain/ids';

/** Independent base32 (Crockford, lowercase) of the leading bits of a buffer, via a bit string. */
function crockfordPrefix(bytes: Buffer, characters: number): string {
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  const bits = [...bytes].map((byte) => byte.toString(2).padStart(8, '0')).join('');
  let out = '';
  for (let i = 0; i < characters; i++) out += alphabet[parseInt(bits.slice(i * 5, i * 5 + 5), 2)];
  return out;
}

describe('domain/ids', () => {
  it('lists every prefix of the spec identifier table', () => {
    const specTable: Record<string, string> = {
      tm_: 'trademark',
      own_: 'owner',
      att_: 'attorney',
      firm_: 'firm',
      prc_: 'proceeding',
      ent_: 'entity',
      key_: 'api_key',
      fbk_: 'feedback',
      whk_: 'webhook_endpoint',
      alt_: 'alert',
      med_: 'media',
      img_: 'image',
      imgsrch_: 'image_search',
      req_: 'request',
    };
    for (const [prefix, kind] of Object.entries(specTable)) expect(ID_PREFIXES[kind as keyof typeof ID_PREFIXES]).to.equal(prefix);
  });

  describe('catalogId', () => {
    it('is prefix + the first 20 Crockford base32 characters of SHA-256("OFFICE:NUMBER")', () => {
      const expected = 'tm_' + crockfordPrefix(createHash('sha256').update('US:97123456').digest(), 20);
      expect(catalogId('tm_', 'US', '97123456')).to.equal(expected);
    });

    it('is stable under office case and blanks in the application number', () => {
      expect(catalogId('tm_', 'us', ' 97 123456 ')).to.equal(catalogId('tm_', 'US', '97123456'));
    });

    it('differs by office and by number', () => {
      const ids = new Set([catalogId('tm_', 'US', '1'), catalogId('tm_', 'EM', '1'), catalogId('tm_', 'US', '2')]);
      expect(ids.size).to.equal(3);
    });

    it('stableId hashes an arbitrary key the same way', () => {
      expect(stableId('own_', 'US:97123456').slice(4)).to.equal(catalogId('tm_', 'US', '97123456').slice(3));
    });
  });

  describe('numberMatchKey', () => {
    it('ignores letter case, spaces, the separators / . - and leading zeros', () => {
      const same = [
        ['0146682', '146682'], // the USPTO's registration as its XML writes it, and as it is cited
        ['018123456', '18123456'], // an EUIPO number without its leading zero
        ['2019-000123', '2019000123'], // a JP application with and without its hyphen
        ['00123/2019', '123/2019'], // a CH application
        ['uk00003123456', 'UK00003123456'],
        ['97 123 456', '97123456'],
      ];
      for (const [a, b] of same) expect(numberMatchKey(a!), `${a} = ${b}`).to.equal(numberMatchKey(b!));
    });

    it('keeps every other difference: inner zeros, digits, letters', () => {
      const different = [
        ['146682', '1466820'],
        ['2019-000123', '2019-123'],
        ['UK00003123456', 'UK3123456'],
        ['TMA123', 'TM123'],
      ];
      for (const [a, b] of different) expect(numberMatchKey(a!), `${a} ≠ ${b}`).to.not.equal(numberMatchKey(b!));
      expect(numberMatchKey('0')).to.equal('0');
    });
  });

  describe('randomId', () => {
    it('has 10 time characters and 14 random characters', () => {
      const id = randomId('key_');
      expect(id).to.match(/^key_[0-9a-hjkmnp-tv-z]{24}$/);
    });

    it('encodes the milliseconds in its first 10 characters (Crockford base32)', () => {
      // 1 ms → "0000000001"; 32 ms → "0000000010"; 1024 ms → "0000000100".
      expect(randomId('req_', 1).slice(4, 14)).to.equal('0000000001');
      expect(randomId('req_', 32).slice(4, 14)).to.equal('0000000010');
      expect(randomId('req_', 1024).slice(4, 14)).to.equal('0000000100');
    });

    it('sorts later IDs after earlier ones', () => {
      const earlier = randomId('alt_', Date.parse('2026-01-01T00:00:00Z'));
      const later = randomId('alt_', Date.parse('2026-01-01T00:00:00.001Z'));
      expect(earlier < later).to.equal(true);
    });

    it('does not repeat, across many blocks of random bytes (512 IDs each)', () => {
      const ids = new Set(Array.from({ length: 5000 }, () => randomId('whk_', 0)));
      expect(ids.size).to.equal(5000);
    });

    it('spreads its random characters over the whole alphabet', () => {
      // 5,000 IDs × 14 random characters: each of the 32 symbols is expected 2,187.5 times
      // (standard deviation about 46).
      const counts = new Map<string, number>();
      for (let i = 0; i < 5000; i++) for (const character of randomId('whk_', 0).slice(14)) counts.set(character, (counts.get(character) ?? 0) + 1);
      expect(counts.size).to.equal(32);
      for (const count of counts.values()) expect(count).to.be.within(1950, 2450);
    });
  });

  describe('idKind and isWellFormedId', () => {
    it('recognises kinds by prefix, including prefixes that share a start', () => {
      expect(idKind('tm_abc123')).to.equal('trademark');
      expect(idKind('img_abc')).to.equal('image');
      expect(idKind('imgsrch_abc')).to.equal('image_search');
      expect(idKind(catalogId('prc_', 'US', '91234567'))).to.equal('proceeding');
    });

    it('rejects unknown prefixes, empty or malformed bodies', () => {
      expect(idKind('foo_abc')).to.equal(null);
      expect(idKind('tm_')).to.equal(null);
      expect(idKind('tm_ABC')).to.equal(null);
      expect(idKind('tm_a-b')).to.equal(null);
      expect(idKind('tmabc')).to.equal(null);
      expect(idKind('tm_' + 'a'.repeat(65))).to.equal(null);
    });

    it('checks the expected prefix', () => {
      const owner = randomId('own_');
      expect(isWellFormedId(owner, 'own_')).to.equal(true);
      expect(isWellFormedId(owner, 'tm_')).to.equal(false);
      expect(isWellFormedId('imgsrch_abc', 'img_')).to.equal(false);
      expect(isWellFormedId('own_', 'own_')).to.equal(false);
    });
  });
});
