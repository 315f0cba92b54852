import type { LookupFunction } from 'node:net';
import { expect } from 'chai';
import { ApiError } from '../../../domain/errors';
import { checkOutboundUrl, type OutboundUrlOptions } from '../../../datasources/outbound/outbound-url';
import { scriptedLookup, type LookupAnswer } from '../../support/fake-lookup';

/** One answer to every question, recording the names asked for. */
const fakeLookup = (answer: LookupAnswer, asked?: string[]): LookupFunction => scriptedLookup([answer], { names: asked });

const resolverError = (code: string): NodeJS.ErrnoException => Object.assign(new Error(`getaddrinfo ${code}`), { code, syscall: 'getaddrinfo' });

/** A resolver that must not be consulted. */
const unusedLookup: LookupFunction = (hostname) => {
  throw new Error(`the resolver was asked for ${hostname}`);
};

/** The ApiError `checkOutboundUrl` rejects with; resolving, or rejecting with anything else, fails the test. */
async function refusalOf(url: string, options: OutboundUrlOptions): Promise<ApiError> {
  try {
    await checkOutboundUrl(url, options);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`expected ${url} to be refused`);
}

/** Asserts `url` is refused with the 400 validation error naming `url`, whose detail contains every one of `words`. */
async function expectInvalid(url: string, options: OutboundUrlOptions, ...words: string[]): Promise<ApiError> {
  const error = await refusalOf(url, options);
  expect(error.type, error.detail).to.equal('validation_error');
  expect(error.status).to.equal(400);
  expect(error.retryable).to.equal(false);
  expect(error.extras.parameter).to.equal('url');
  expect(error.detail).to.match(/^url: /);
  for (const word of words) expect(error.detail).to.contain(word);
  return error;
}

const PRODUCTION: OutboundUrlOptions = { production: true, lookup: unusedLookup };
const DEVELOPMENT: OutboundUrlOptions = { production: false, lookup: unusedLookup };
const PUBLIC_V4 = '93.184.216.34';
const PUBLIC_V6 = '2606:2800:220:1:248:1893:25c8:1946';

describe('outbound: checkOutboundUrl', () => {
  describe('in production', () => {
    it('refuses http://, naming https', async () => {
      await expectInvalid(`http://${PUBLIC_V4}/hook`, PRODUCTION, 'https');
      await expectInvalid('http://hooks.example.com/hook', { production: true, lookup: fakeLookup([PUBLIC_V4]) }, 'https');
    });

    const forbiddenLiterals: Array<[string, string]> = [
      ['https://127.0.0.1/hook', 'loopback'],
      ['https://127.0.0.1:8443/hook', 'loopback'],
      ['https://10.0.0.1/hook', 'private'],
      ['https://192.168.1.1/hook', 'private'],
      ['https://172.16.0.1/hook', 'private'],
      ['https://169.254.169.254/latest/meta-data/', 'cloud metadata'],
      ['https://100.64.0.1/hook', 'carrier-grade NAT'],
      ['https://0.0.0.0/hook', 'unspecified'],
      ['https://[::1]/hook', 'loopback'],
      ['https://[::ffff:127.0.0.1]/hook', 'loopback'],
      ['https://[::ffff:169.254.169.254]/hook', 'cloud metadata'],
      ['https://[fc00::1]/hook', 'unique-local'],
      ['https://[fe80::1]/hook', 'link-local'],
      ['https://[64:ff9b::10.0.0.1]/hook', 'private'],
      // Other spellings of 127.0.0.1 the URL parser normalizes.
      ['https://2130706433/hook', 'loopback'],
      ['https://0x7f.0.0.1/hook', 'loopback'],
      ['https://127.1/hook', 'loopback'],
      ['https://0177.0.0.1/hook', 'loopback'],
    ];
    for (const [url, kind] of forbiddenLiterals) {
      it(`refuses ${url} (${kind}) without resolving anything`, async () => {
        await expectInvalid(url, PRODUCTION, 'production', kind);
      });
    }

    it('refuses the deprecated IPv4-compatible IPv6 form', async () => {
      await expectInvalid('https://[::127.0.0.1]/hook', PRODUCTION, 'production');
      await expectInvalid('https://[::808:808]/hook', PRODUCTION, 'production');
    });

    it('refuses the name localhost (system resolver)', async () => {
      await expectInvalid('https://localhost/hook', { production: true }, 'production', 'loopback');
    });

    it('refuses a name the resolver maps to a private address, and says which', async () => {
      const asked: string[] = [];
      await expectInvalid('https://internal.example.com/hook', { production: true, lookup: fakeLookup(['10.0.0.1'], asked) }, '10.0.0.1', 'private');
      expect(asked).to.deep.equal(['internal.example.com']);
    });

    it('refuses a name the resolver maps to the metadata address', async () => {
      await expectInvalid('https://metadata.example.com/', { production: true, lookup: fakeLookup(['169.254.169.254']) }, 'cloud metadata');
    });

    it('refuses a name with one public and one private address, in either order', async () => {
      await expectInvalid('https://mixed.example.com/hook', { production: true, lookup: fakeLookup([PUBLIC_V4, '192.168.1.1']) }, '192.168.1.1');
      await expectInvalid('https://mixed.example.com/hook', { production: true, lookup: fakeLookup(['::1', PUBLIC_V4]) }, '::1');
      await expectInvalid('https://mixed.example.com/hook', { production: true, lookup: fakeLookup([PUBLIC_V6, 'fd00::5']) }, 'fd00::5');
    });

    it('passes a name the resolver maps to public addresses', async () => {
      const asked: string[] = [];
      await checkOutboundUrl('https://hooks.example.com/in?x=1', { production: true, lookup: fakeLookup([PUBLIC_V4], asked) });
      await checkOutboundUrl('https://hooks.example.com:8443/in', { production: true, lookup: fakeLookup([PUBLIC_V4, PUBLIC_V6], asked) });
      expect(asked).to.deep.equal(['hooks.example.com', 'hooks.example.com']);
    });

    it('passes public IP literals without resolving anything', async () => {
      await checkOutboundUrl(`https://${PUBLIC_V4}/hook`, PRODUCTION);
      await checkOutboundUrl(`https://[${PUBLIC_V6}]:8443/hook`, PRODUCTION);
      await checkOutboundUrl(`https://[::ffff:${PUBLIC_V4}]/hook`, PRODUCTION);
    });

    it('refuses a name that does not resolve (ENOTFOUND, ENODATA, no address) as a 400 naming the host', async () => {
      await expectInvalid(
        'https://nowhere.example.com/',
        { production: true, lookup: fakeLookup(resolverError('ENOTFOUND')) },
        'does not resolve',
        'nowhere.example.com',
      );
      await expectInvalid(
        'https://nodata.example.com/',
        { production: true, lookup: fakeLookup(resolverError('ENODATA')) },
        'does not resolve',
        'nodata.example.com',
      );
      await expectInvalid('https://empty.example.com/', { production: true, lookup: fakeLookup([]) }, 'does not resolve', 'empty.example.com');
    });

    it('reports a resolver failure (EAI_AGAIN) as a retryable upstream_error naming url', async () => {
      const error = await refusalOf('https://flaky.example.com/', { production: true, lookup: fakeLookup(resolverError('EAI_AGAIN')) });
      expect(error.type, error.detail).to.equal('upstream_error');
      expect(error.status).to.equal(502);
      expect(error.retryable).to.equal(true);
      expect(error.detail).to.match(/^url: /);
      expect(error.detail).to.contain('EAI_AGAIN');
    });

    it('refuses user:pass@ credentials', async () => {
      await expectInvalid(`https://user:secret@${PUBLIC_V4}/hook`, PRODUCTION, 'user name or password');
      await expectInvalid(`https://user@${PUBLIC_V4}/hook`, PRODUCTION, 'user name or password');
    });

    it('refuses a non-http scheme', async () => {
      await expectInvalid(`ftp://${PUBLIC_V4}/hook`, PRODUCTION, 'http or https');
      await expectInvalid('file:///etc/passwd', PRODUCTION, 'http or https');
    });

    it('refuses a host name longer than DNS allows (253 characters, labels of 63) as a 400 without resolving it', async () => {
      const long = `https://${Array.from({ length: 130 }, () => 'a').join('.')}.com/x`;
      await expectInvalid(long, PRODUCTION, 'host name', '253 characters');
      await expectInvalid(`https://${'a'.repeat(64)}.example.com/x`, PRODUCTION, 'host name', '63');
      await expectInvalid('https://a..example.com/x', PRODUCTION, 'host name');
      // The longest names DNS allows pass on to resolution.
      const lookup = fakeLookup([PUBLIC_V4]);
      await checkOutboundUrl(`https://${'a'.repeat(63)}.example.com/x`, { production: true, lookup });
      await checkOutboundUrl(`https://${Array.from({ length: 126 }, () => 'b').join('.')}.c/x`, { production: true, lookup });
      await checkOutboundUrl('https://example.com./x', { production: true, lookup });
    });

    it('refuses an unparsable URL', async () => {
      for (const url of ['not a url', '', '/relative/path', 'https://', 'https://exa mple.com/']) {
        await expectInvalid(url, PRODUCTION, 'http or https');
      }
    });
  });

  describe('in development', () => {
    it('passes http:// to a loopback address', async () => {
      await checkOutboundUrl('http://127.0.0.1:1234/x', DEVELOPMENT);
      await checkOutboundUrl('http://[::1]:1234/x', DEVELOPMENT);
      await checkOutboundUrl('https://10.0.0.1/x', DEVELOPMENT);
    });

    it('accepts any name without resolving it', async () => {
      await checkOutboundUrl('http://localhost:3000/hook', DEVELOPMENT);
      await checkOutboundUrl('http://receiver-not-up-yet.test/hook', DEVELOPMENT);
    });

    it('still refuses credentials, other schemes and unparsable URLs', async () => {
      await expectInvalid('http://user:pass@127.0.0.1:1234/x', DEVELOPMENT, 'user name or password');
      await expectInvalid('ftp://127.0.0.1/x', DEVELOPMENT, 'http or https');
      await expectInvalid('http//missing-colon', DEVELOPMENT, 'http or https');
    });
  });
});
