import { type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { expect } from 'chai';
import { ApiError } from '../../../domain/errors';
import { forbiddenAddressKind, guardedLookup } from '../../../datasources/outbound/address-policy';
import { scriptedLookup, type LookupAnswer } from '../../support/fake-lookup';

/** One answer to every question, recording the options asked with. */
const fixedLookup = (answer: LookupAnswer, seen?: LookupOptions[]): LookupFunction => scriptedLookup([answer], { options: seen });

interface LookupOutcome {
  error: NodeJS.ErrnoException | null;
  address: string | LookupAddress[];
  family: number | undefined;
}

/** What `lookup` hands to its callback for `hostname` with `options`. */
function outcomeOf(lookup: LookupFunction, hostname: string, options: LookupOptions): Promise<LookupOutcome> {
  return new Promise((resolve) => lookup(hostname, options, (error, address, family) => resolve({ error, address, family })));
}

function expectRefusal(outcome: LookupOutcome, address: string): ApiError {
  expect(outcome.error).to.be.instanceOf(ApiError);
  const error = outcome.error as unknown as ApiError;
  expect(error.type).to.equal('validation_error');
  expect(error.status).to.equal(400);
  expect(error.extras.parameter).to.equal('url');
  expect(error.detail).to.match(/^url: /);
  expect(error.detail).to.contain(address);
  return error;
}

describe('outbound: address policy', () => {
  describe('forbiddenAddressKind', () => {
    const forbidden: Array<[string, string]> = [
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['10.0.0.1', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.1.1', 'private'],
      ['169.254.169.254', 'cloud metadata'],
      ['169.254.1.1', 'link-local'],
      ['100.64.0.1', 'carrier-grade NAT'],
      ['100.127.255.255', 'carrier-grade NAT'],
      ['100.100.100.200', 'cloud metadata'],
      ['168.63.129.16', 'cloud metadata'],
      ['0.0.0.0', 'unspecified'],
      ['255.255.255.255', 'broadcast'],
      ['224.0.0.1', 'multicast'],
      ['::1', 'loopback'],
      ['::', 'unspecified'],
      ['fe80::1', 'link-local'],
      ['fc00::1', 'unique-local'],
      ['fd12:3456::1', 'unique-local'],
      ['fd00:ec2::254', 'cloud metadata'],
      ['ff02::1', 'multicast'],
      // IPv4-mapped IPv6 and the NAT64 well-known prefix are judged as the IPv4 address they reach.
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['::ffff:10.0.0.1', 'private'],
      ['::ffff:169.254.169.254', 'cloud metadata'],
      ['64:ff9b::7f00:1', 'loopback'],
      ['64:ff9b::a00:1', 'private'],
      ['not-an-address', 'not an IP address'],
      ['example.com', 'not an IP address'],
    ];
    for (const [address, kind] of forbidden) {
      it(`refuses ${address} as ${kind}`, () => {
        expect(forbiddenAddressKind(address)).to.equal(kind);
      });
    }

    // Special-purpose ranges whose wording the module leaves open: only the refusal matters.
    const alsoForbidden = [
      '192.0.2.1', // documentation (TEST-NET-1)
      '198.18.0.1', // benchmarking
      '203.0.113.9', // documentation (TEST-NET-3)
      '240.0.0.1', // reserved
      '2001:db8::1', // documentation
      '2002:7f00:1::1', // 6to4
      '2001:0:4136:e378::1', // Teredo
      '64:ff9b:1::a00:1', // local-use NAT64
      '::127.0.0.1', // deprecated IPv4-compatible
      '::7f00:1', // the same, as URL parsing and Node's resolver spell it
      '::808:808', // deprecated IPv4-compatible, even of a public address
      'fec0::1', // deprecated site-local
    ];
    for (const address of alsoForbidden) {
      it(`refuses ${address}`, () => {
        expect(forbiddenAddressKind(address)).to.be.a('string').and.not.equal('');
      });
    }

    // ipaddr.js parses the dotted ::a.b.c.d as the IPv4-mapped ::ffff:a.b.c.d; the module refuses the form itself.
    it('refuses ::8.8.8.8 (deprecated IPv4-compatible, dotted spelling)', () => {
      expect(forbiddenAddressKind('::8.8.8.8')).to.be.a('string').and.not.equal('');
    });

    const allowed = [
      '93.184.216.34',
      '8.8.8.8',
      '1.1.1.1',
      '11.0.0.1',
      '172.32.0.1', // just past 172.16.0.0/12
      '172.15.255.255', // just before it
      '100.128.0.1', // just past 100.64.0.0/10
      '169.255.0.1', // just past 169.254.0.0/16
      '2606:2800:220:1:248:1893:25c8:1946',
      '2001:4860:4860::8888',
      '::ffff:93.184.216.34',
      '64:ff9b::5db8:d822', // NAT64 of 93.184.216.34
    ];
    for (const address of allowed) {
      it(`allows the public address ${address}`, () => {
        expect(forbiddenAddressKind(address)).to.equal(null);
      });
    }
  });

  describe('guardedLookup', () => {
    it('asks the resolver for every address even when the caller wants one', async () => {
      const seen: LookupOptions[] = [];
      const outcome = await outcomeOf(guardedLookup(fixedLookup(['93.184.216.34'], seen)), 'public.test', { family: 0 });
      expect(seen).to.have.length(1);
      expect(seen[0]?.all).to.equal(true);
      expect(outcome).to.deep.equal({ error: null, address: '93.184.216.34', family: 4 });
    });

    it('passes every public address through when the caller wants all', async () => {
      const outcome = await outcomeOf(guardedLookup(fixedLookup(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'])), 'public.test', { all: true });
      expect(outcome.error).to.equal(null);
      expect(outcome.address).to.deep.equal([
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
      ]);
    });

    it('refuses a name that resolves to a private address', async () => {
      const outcome = await outcomeOf(guardedLookup(fixedLookup(['10.0.0.1'])), 'internal.test', { all: true });
      expect(expectRefusal(outcome, '10.0.0.1').detail).to.contain('private');
    });

    it('refuses a name with one public and one private address, in either order', async () => {
      for (const answer of [
        ['93.184.216.34', '127.0.0.1'],
        ['127.0.0.1', '93.184.216.34'],
      ]) {
        const forOne = await outcomeOf(guardedLookup(fixedLookup(answer)), 'mixed.test', { family: 0 });
        expectRefusal(forOne, '127.0.0.1');
        const forAll = await outcomeOf(guardedLookup(fixedLookup(answer)), 'mixed.test', { all: true });
        expectRefusal(forAll, '127.0.0.1');
      }
    });

    it('refuses a forbidden address from a resolver that ignores all: true and answers with one address', async () => {
      const singleAnswer: LookupFunction = (_hostname, _options, callback) => setImmediate(() => callback(null, '169.254.169.254', 4));
      const outcome = await outcomeOf(guardedLookup(singleAnswer), 'metadata.test', { all: true });
      expect(expectRefusal(outcome, '169.254.169.254').detail).to.contain('cloud metadata');
    });

    it('passes a resolver error through unchanged', async () => {
      const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' });
      const outcome = await outcomeOf(guardedLookup(fixedLookup(notFound)), 'nowhere.test', { all: true });
      expect(outcome.error).to.equal(notFound);
    });

    it('fails a name with no address at all rather than connecting nowhere', async () => {
      const outcome = await outcomeOf(guardedLookup(fixedLookup([])), 'empty.test', { family: 0 });
      expect(outcome.error).to.be.instanceOf(Error);
      expect(outcome.error).to.not.be.instanceOf(ApiError);
      expect(outcome.error?.code).to.equal('ENOTFOUND');
    });
  });
});
