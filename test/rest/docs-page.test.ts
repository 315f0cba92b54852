/**
 * `/docs`, the API reference, as a reader sees it: over plain HTTP (the page and every asset it
 * names come from Marque, with no key), and in a real headless Chromium (Debian's `chromium`,
 * driven by playwright-core; never a downloaded browser): the page renders the OpenAPI document
 * with no console error and no request leaving this machine, lists the trademark search, and
 * "Try it out" with a key entered under "Authorize" gets an answer. The browser test also writes
 * the screenshot the README shows (docs/api-reference.png with UPDATE_SCREENSHOTS set; otherwise to a temporary file,
 * so a CI run never rewrites the committed one).
 */
import { mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/chromium';
import { startTestApp, type TestApp } from '../support/harness';

const SCREENSHOT = process.env.UPDATE_SCREENSHOTS ? join(__dirname, '..', '..', 'docs', 'api-reference.png') : join(tmpdir(), 'marque-api-reference.png');
const SEARCH_PATH = '/v1/trademarks';

interface OpenApiDocument {
  paths: Record<string, Record<string, { summary?: string }>>;
}

/** The URLs a page names in src= and href= attributes. */
function referencedUrls(html: string): string[] {
  return [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((match) => match[1]!.replace(/&amp;/g, '&'));
}

function isLocal(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  if (protocol === 'data:' || protocol === 'blob:') return true;
  return ['127.0.0.1', 'localhost', '[::1]'].includes(hostname);
}

describe('REST: /docs API reference', function () {
  this.timeout(120_000);
  let app: TestApp;
  let searchSummary: string;

  before(async function () {
    app = await startTestApp({ marks: 50 });
    const document = (await (await app.get('/v1/openapi.json', null)).json()) as OpenApiDocument;
    // The summary comes from the route table, through the generated document.
    searchSummary = document.paths[SEARCH_PATH]?.get?.summary ?? '';
    expect(searchSummary).to.not.equal('');
  });

  after(async function () {
    await app?.close();
  });

  it('answers the page without a key, and every asset it names from Marque itself', async function () {
    const response = await app.get('/docs', null);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).to.equal('no-cache');
    expect(response.headers.get('content-security-policy')).to.contain("default-src 'none'");
    const html = await response.text();
    const urls = referencedUrls(html);
    expect(urls.filter((url) => url.includes('swagger-ui-bundle.js'))).to.have.length(1);
    expect(urls.filter((url) => url.includes('swagger-ui.css'))).to.have.length(1);
    for (const url of urls) {
      // Root-relative: served by this origin, whatever host or port it is reached at.
      expect(url, url).to.match(/^\/(?!\/)/);
      const asset = await app.get(url, null);
      expect(asset.status, url).to.equal(200);
      expect((await asset.arrayBuffer()).byteLength, url).to.be.greaterThan(0);
      if (url.startsWith('/docs/assets/')) {
        expect(asset.headers.get('cache-control'), url).to.equal('public, max-age=31536000, immutable');
        const etag = asset.headers.get('etag');
        expect(etag, url).to.match(/^"[\w-]+"$/);
        const again = await app.get(url, null, { 'if-none-match': etag! });
        expect(again.status, url).to.equal(304);
      }
    }
    expect(urls).to.include('/v1/openapi.json');
    const unknown = await app.get('/docs/assets/nothing.js', null);
    expect(unknown.status).to.equal(404);
    expect(((await unknown.json()) as { error: { type: string } }).error.type).to.equal('not_found');
  });

  it('sends /docs/ to /docs', async function () {
    const response = await fetch(`${app.baseUrl}/docs/`, { redirect: 'manual' });
    expect(response.status).to.equal(301);
    expect(response.headers.get('location')).to.equal('/docs');
  });

  describe('in headless Chromium', function () {
    let browser: Browser | null = null;

    before(async function () {
      browser = await launchChromium();
    });

    after(async function () {
      await browser?.close();
    });

    it('renders the reference offline, lists the trademark search, and tries it with a key', async function () {
      const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
      const requests: string[] = [];
      const problems: string[] = [];
      context.on('request', (request) => void requests.push(request.url()));
      context.on('requestfailed', (request) => void problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
      // Anything bound elsewhere is recorded above and never leaves the machine.
      await context.route(
        (url) => !isLocal(url.href),
        (route) => route.abort(),
      );
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => void problems.push(`page error: ${error.message}`));

      try {
        const response = await page.goto(`${app.baseUrl}/docs`, { waitUntil: 'networkidle' });
        expect(response?.status()).to.equal(200);

        const search = page.locator('.opblock-get').filter({ has: page.locator(`.opblock-summary-path[data-path="${SEARCH_PATH}"]`) });
        await search.waitFor({ state: 'visible' });
        expect((await search.locator('.opblock-summary-description').innerText()).trim()).to.equal(searchSummary);
        expect(await page.locator('.opblock').count()).to.be.greaterThan(20);
        // The picture: the operations of the Trademarks tag under "Authorize" (filter, then scroll
        // the page to the bar that holds the button).
        await page.locator('input.operation-filter-input').fill('Trademarks');
        await page.locator('.opblock-tag[data-tag="Health"]').waitFor({ state: 'detached' });
        await search.waitFor({ state: 'visible' });
        const bar = await page.locator('.scheme-container').boundingBox();
        await page.mouse.wheel(0, bar?.y ?? 0);
        await page.waitForLoadState('networkidle');
        mkdirSync(dirname(SCREENSHOT), { recursive: true });
        await page.screenshot({ path: SCREENSHOT });
        expect(statSync(SCREENSHOT).size).to.be.greaterThan(10_000);

        // "Authorize" with the bearer key, then "Try it out" on the search.
        await page.locator('.scheme-container button.authorize').click();
        const dialog = page.locator('.modal-ux');
        await dialog.locator('input').first().fill(app.keys.full);
        await dialog.locator('button.authorize').click();
        await dialog.locator('button.btn-done').click();
        await search.locator('.opblock-summary').first().click();
        await search.locator('button.try-out__btn').click();
        // A search needs at least a query or a filter (unscoped lists are refused).
        await search.locator('tr[data-param-name="q"] input').fill('star');
        const [tried] = await Promise.all([
          page.waitForResponse((answer) => new URL(answer.url()).pathname === SEARCH_PATH),
          search.locator('button.execute').click(),
        ]);
        expect(tried.status(), `${tried.url()} ${await tried.text()}`).to.equal(200);
        expect(await tried.request().headerValue('authorization')).to.equal(`Bearer ${app.keys.full}`);
        const shown = search.locator('.live-responses-table tr.response .response-col_status').first();
        await shown.waitFor({ state: 'visible' });
        expect((await shown.innerText()).trim()).to.equal('200');
      } finally {
        await context.close();
      }

      expect(problems, problems.join('\n')).to.deep.equal([]);
      const elsewhere = requests.filter((url) => !isLocal(url));
      expect(elsewhere, elsewhere.join('\n')).to.deep.equal([]);
      expect(requests.some((url) => new URL(url).pathname === '/v1/openapi.json')).to.equal(true);
    });
  });
});
