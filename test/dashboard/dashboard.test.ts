/**
 * The dashboard in a real browser (issue 22): Debian's headless Chromium driven by playwright-core
 * (never a downloaded browser). It signs in with a key, opens every page with no console error and
 * no request leaving this host, creates a watch with a preview, sees the alert for a matching mark
 * (written through the one write path, as `marque marks add` does) arrive without a reload,
 * triages it, pauses the watch, and checks a phone-width layout; a key of another organization sees
 * none of it. Screenshots go to docs/dashboard-*.png (the README shows them) when UPDATE_SCREENSHOTS is set.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium';
import { projectRoot } from '../../resolvers/project-root';
import { ensureDashboardBuilt } from '../support/dashboard-build';
import { startTestApp, type TestApp } from '../support/harness';
import { MARQUE } from '../support/serve-process';
import { ok, send } from '../support/http';
import { catalogId } from '../../domain/ids';
import { COLLECTIONS, type TrademarkDoc } from '../../domain/records';
import { addMark } from '../../workers/ingest/manual-marks';
import { MarkWriter } from '../../workers/ingest/mark-writer';

// The README's pictures are refreshed on request (UPDATE_SCREENSHOTS=1 npm test); other runs write to a temporary folder.
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS ? join(projectRoot(), 'docs') : join(tmpdir(), 'marque-dashboard-screenshots');
const PAGES = ['Overview', 'Alerts', 'Watches', 'Deadlines', 'Webhooks', 'Usage'] as const;
const today = (): string => new Date().toISOString().slice(0, 10);

/** Clicks `more` until it is gone, waiting each time for the next row of `rows` to appear. */
async function showAll(more: Locator, rows: Locator): Promise<void> {
  while ((await more.count()) > 0) {
    const shown = await rows.count();
    await more.click();
    await rows.nth(shown).waitFor();
  }
}

interface Watched {
  page: Page;
  context: BrowserContext;
  consoleErrors: string[];
  foreignRequests: string[];
}

describe('dashboard in a real browser (issue 22)', function () {
  this.timeout(180_000);
  let app: TestApp;
  let browser: Browser;
  const opened: Watched[] = [];

  before(async function () {
    ensureDashboardBuilt();
    app = await startTestApp({ marks: 300, organization: { plan: 'pro' } });
    browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
    // Something for the deadlines and webhooks pages to show: a portfolio of marks whose renewal
    // falls due within the year, and an endpoint (no dispatcher runs, so it has no deliveries).
    const due = await ok<{ data: Array<{ id: string }> }>(
      await send(app, 'GET', `/v1/trademarks?status_primary=active&renewal_due_date_gte=${today()}&sort=renewal_due_date&limit=8`),
    );
    await ok(await send(app, 'POST', '/v1/portfolios', { name: 'Renewals', trademark_ids: due.data.map((mark) => mark.id) }), 201);
    await ok(await send(app, 'POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/marque', description: 'Docketing system' }), 201);
  });

  after(async () => {
    for (const { context } of opened) await context.close().catch(() => undefined);
    await browser?.close();
    await app?.close();
  });

  afterEach(() => {
    // Every page of every test: nothing logged as an error, nothing fetched from another host.
    for (const { consoleErrors, foreignRequests } of opened) {
      expect(consoleErrors, 'console errors').to.deep.equal([]);
      expect(foreignRequests, 'requests to other hosts').to.deep.equal([]);
    }
  });

  async function open(viewport = { width: 1280, height: 900 }): Promise<Watched> {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const watched: Watched = { page, context, consoleErrors: [], foreignRequests: [] };
    const origin = new URL(app.baseUrl).origin;
    page.on('console', (message) => {
      if (message.type() === 'error') watched.consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => watched.consoleErrors.push(String(error)));
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(origin) && !url.startsWith('data:')) watched.foreignRequests.push(url);
    });
    opened.push(watched);
    return watched;
  }

  async function signIn(page: Page, key: string): Promise<void> {
    await page.goto(`${app.baseUrl}/dashboard`);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  }

  async function go(page: Page, title: (typeof PAGES)[number]): Promise<void> {
    await page.getByRole('navigation').getByRole('link', { name: title, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    // Loaded: no "Loading …" status left, and no error shown.
    await page.waitForFunction(() => !document.querySelector('main [role="status"]')?.textContent?.startsWith('Loading'));
    expect(await page.locator('main .error').allTextContents()).to.deep.equal([]);
  }

  let first: Watched;
  let alertId = '';

  it('serves the page and hashed assets with long-lived caching, and refuses a malformed key', async () => {
    const page = await app.get('/dashboard', null);
    expect(page.status).to.equal(200);
    expect(page.headers.get('cache-control')).to.equal('no-cache');
    expect(page.headers.get('content-security-policy')).to.include("script-src 'self'");
    const html = await page.text();
    const script = /src="(\/dashboard\/assets\/app-[A-Z0-9]+\.js)"/.exec(html)?.[1];
    expect(script).to.be.a('string');
    const asset = await app.get(script!, null);
    expect(asset.status).to.equal(200);
    expect(asset.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
    const body = await asset.text();
    // The bundle carries no key (nor anything shaped like one).
    expect(body).not.to.match(/mq_[0-9a-f]{48}/);
    expect((await app.get('/dashboard/assets/nope.js', null)).status).to.equal(404);

    first = await open();
    await first.page.goto(`${app.baseUrl}/dashboard`);
    await first.page.getByLabel('API key').fill('mq_not-a-key');
    await first.page.getByRole('button', { name: 'Sign in' }).click();
    await first.page.getByRole('alert').filter({ hasText: '48 hexadecimal' }).waitFor();
  });

  it('signs in once (sessionStorage) and opens every page', async () => {
    const { page } = first;
    await signIn(page, app.keys.full);
    expect(await page.evaluate(() => sessionStorage.getItem('marque.dashboard.apiKey'))).to.equal(app.keys.full);
    await page.locator('figure.chart canvas').first().waitFor();
    expect(await page.locator('text=marks in the catalog').textContent()).to.match(/^300 marks/);
    await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-overview.png'), fullPage: true });
    for (const title of PAGES) await go(page, title);
    await go(page, 'Deadlines');
    await page.locator('ol.timeline li').first().waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-deadlines.png'), fullPage: true });
    await go(page, 'Webhooks');
    await page.getByRole('button', { name: 'Show deliveries' }).click();
    await page.getByText('No deliveries in the last 30 days.').waitFor();
    await go(page, 'Usage');
    await page.locator('figure.chart canvas').waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-usage.png'), fullPage: true });
    // A reload keeps the session: no second sign-in.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
  });

  it('creates a watch with a preview', async () => {
    const { page } = first;
    await go(page, 'Watches');
    await page.getByLabel('Name').fill('NZ class 9');
    await page.getByLabel('Offices').fill('NZ');
    await page.getByLabel('Nice classes').fill('9');
    await page.getByRole('button', { name: 'Preview matches' }).click();
    await page.getByTestId('watch-preview').waitFor();
    expect(await page.getByTestId('watch-preview').textContent()).to.match(/Would match \d+ marks today/);
    await page.getByRole('button', { name: 'Create watch' }).click();
    await page.getByRole('rowheader', { name: 'NZ class 9' }).waitFor();
    await page.getByRole('button', { name: 'Diagnostics of NZ class 9' }).click();
    await page.getByText(/marks match now/).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-watches.png'), fullPage: true });
  });

  it('shows the alert of a matching mark live, without a reload, and triages it', async () => {
    const { page } = first;
    await go(page, 'Alerts');
    await page.getByTestId('live-status').filter({ hasText: 'Live' }).waitFor();
    // The subscription starts at the change feed's end when its stream opens: give it a moment.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const marker = await page.evaluate(() => ((window as unknown as { marker: number }).marker = Math.random()));
    // Written as a person would, with the CLI, in another process on the app's data directory.
    const added = spawnSync(
      process.execPath,
      [MARQUE, 'marks', 'add', '--mark-text', 'Tui Beacon', '--office', 'NZ', '--classes', '9', '--owner-name', 'Kea Holdings Ltd'],
      {
        env: { ...process.env, MARQUE_DATA_DIR: dirname(app.storePath), MARQUE_LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      },
    );
    expect(added.status, added.stderr).to.equal(0);
    const trademark_id = (JSON.parse(added.stdout) as { id: string }).id;
    await app.server.watchEvaluator.catchUp();
    const card = page.locator('li.alert', { hasText: 'Tui Beacon' });
    await card.waitFor({ timeout: 20_000 });
    // The same document: nothing reloaded it.
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).to.equal(marker);
    alertId = (await card.getAttribute('data-alert-id')) ?? '';
    expect(alertId).to.match(/^alt_/);
    expect(await card.textContent()).to.include('new filing');
    await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-alerts.png'), fullPage: true });

    await card.getByRole('button', { name: 'Acknowledge alert on Tui Beacon' }).click();
    await card.getByTestId('alert-status').filter({ hasText: 'acknowledged' }).waitFor();
    const stored = await ok<{ status: string; trademark_id: string }>(await send(app, 'GET', `/v1/alerts/${alertId}`));
    expect(stored).to.include({ status: 'acknowledged', trademark_id });
    await card.getByRole('button', { name: 'Reopen alert on Tui Beacon' }).click();
    await card
      .getByTestId('alert-status')
      .filter({ hasText: /^open$/ })
      .waitFor();
    await card.getByRole('button', { name: 'Dismiss alert on Tui Beacon' }).click();
    await card.getByTestId('alert-status').filter({ hasText: 'dismissed' }).waitFor();
    expect((await ok<{ status: string }>(await send(app, 'GET', `/v1/alerts/${alertId}`))).status).to.equal('dismissed');
    await card.getByRole('button', { name: 'Reopen alert on Tui Beacon' }).click();
    await card
      .getByTestId('alert-status')
      .filter({ hasText: /^open$/ })
      .waitFor();
    expect((await ok<{ status: string }>(await send(app, 'GET', `/v1/alerts/${alertId}`))).status).to.equal('open');

    // The mark's page, from the alert.
    await card.getByRole('link', { name: 'Tui Beacon' }).click();
    await page.getByRole('heading', { level: 1, name: 'Mark' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Tui Beacon' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Prosecution history' }).waitFor();

    // A figurative mark of the catalog shows its logo, loaded from /v1/media by the page.
    const [figurative] = (
      await ok<{ data: Array<{ id: string; mark_text: string }> }>(await send(app, 'GET', '/v1/trademarks?has_media=true&mark_feature_type=combined&limit=1'))
    ).data;
    expect(figurative, 'a generated mark with a logo').to.not.equal(undefined);
    await page.goto(`${app.baseUrl}/dashboard#/marks/${figurative?.id}`);
    const logo = page.getByRole('img', { name: `Logo of ${figurative?.mark_text}` });
    await logo.waitFor();
    await page.waitForFunction((alt) => {
      const image = [...document.images].find((candidate) => candidate.alt === alt);
      return image !== undefined && image.complete && image.naturalWidth > 0;
    }, `Logo of ${figurative?.mark_text}`);
    await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-mark.png'), fullPage: true });
  });

  it('pauses and resumes the watch', async () => {
    const { page } = first;
    await go(page, 'Watches');
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'NZ class 9' }) });
    await row.getByRole('button', { name: 'Pause NZ class 9' }).click();
    await row.getByTestId('watch-status').filter({ hasText: 'paused' }).waitFor();
    await row.getByRole('button', { name: 'Resume NZ class 9' }).click();
    await row.getByTestId('watch-status').filter({ hasText: 'active' }).waitFor();
  });

  /** The number of rows of a list of the test organization, as the REST API counts them. */
  async function countOf(path: string): Promise<number> {
    const listed = await ok<{ pagination: { total_count: number } }>(
      await send(app, 'GET', `${path}${path.includes('?') ? '&' : '?'}limit=1&include_total=true`),
    );
    return listed.pagination.total_count;
  }

  it('reaches every watch of a list longer than a page through "Show more watches", which goes once all are shown', async () => {
    const before = await countOf('/v1/watches');
    const names = Array.from({ length: 110 }, (_, i) => `Paged watch ${String(i).padStart(3, '0')}`);
    for (const chunk of [names.slice(0, 60), names.slice(60)]) {
      const items = chunk.map((name) => ({ name, watch_type: 'filter', query: { filters: { offices: ['us'], niceClasses: [9] } } }));
      await ok(await send(app, 'POST', '/v1/watches/bulk', { items }), 201);
    }
    const total = before + names.length;
    expect(await countOf('/v1/watches')).to.equal(total);
    const { page } = await open();
    await signIn(page, app.keys.full);
    await go(page, 'Watches');
    const rows = page.locator('tr[data-watch-id]');
    await rows.nth(99).waitFor();
    expect(await rows.count()).to.equal(100);

    // The next page's first request fails, and the second is held until the disabled control is seen.
    let fail = true;
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/graphql', async (route) => {
      const body = route.request().postDataJSON() as { operationName?: string; variables?: { cursor?: string | null } };
      if (body.operationName !== 'Watches' || !body.variables?.cursor) return route.continue();
      if (fail) {
        fail = false;
        const errors = [{ message: 'Simulated failure of the next page', extensions: { type: 'internal_error', status: 500 } }];
        return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ errors }) });
      }
      await held;
      return route.continue();
    });
    const more = page.getByRole('button', { name: 'Show more watches' });
    await more.click();
    await page.locator('.load-more [role="alert"]').filter({ hasText: 'Simulated failure of the next page' }).waitFor();
    expect(await rows.count()).to.equal(100);
    await more.click();
    const loading = page.getByRole('button', { name: 'Loading more watches…' });
    await loading.waitFor();
    expect(await loading.isDisabled()).to.equal(true);
    expect(await page.locator('.load-more [role="alert"]').count()).to.equal(0);
    release();
    await rows.nth(100).waitFor();
    await page.unroute('**/graphql');

    await showAll(more, rows);
    expect(await rows.count()).to.equal(total);
    expect(await page.locator('.load-more').count()).to.equal(0);
    const shownNames = await page.locator('tr[data-watch-id] th').allTextContents();
    expect(shownNames).to.include.members(names);
    expect(new Set(await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-watch-id')))).size).to.equal(total);

    // A watch of a later page can be paused, and the list stays as long as it is.
    const oldest = names[0]!;
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: oldest, exact: true }) });
    await row.getByRole('button', { name: `Pause ${oldest}` }).click();
    await row.getByTestId('watch-status').filter({ hasText: 'paused' }).waitFor();
    expect(await rows.count()).to.equal(total);
  });

  it('reaches every open alert through "Show more alerts", keeps live alerts and triage, and pages again after a filter change', async () => {
    // A watch of its own, and marks only it matches: each mark written makes one alert.
    const watch = await ok<{ id: string }>(
      await send(app, 'POST', '/v1/watches', { watch_type: 'filter', name: 'CA class 33', query: { filters: { offices: ['ca'], niceClasses: [33] } } }),
      201,
    );
    const openBefore = await countOf('/v1/alerts?status=open');
    const writer = new MarkWriter(app.adapters.store);
    const add = (markText: string) =>
      addMark(app.adapters.store, writer, { markText, officeCode: 'CA', classes: [33], ownerName: 'Paging Test Ltd', status: 'pending', today: today() });
    const texts = Array.from({ length: 60 }, (_, i) => `Maple Paging ${String(i).padStart(3, '0')}`);
    for (const text of texts) await add(text);
    await app.server.watchEvaluator.catchUp();
    await app.server.watchEvaluator.catchUp();
    expect(await countOf(`/v1/alerts?watch_id=${watch.id}`)).to.equal(texts.length);
    const total = openBefore + texts.length;
    expect(total).to.be.greaterThan(50);

    const { page } = await open();
    await signIn(page, app.keys.full);
    await go(page, 'Alerts');
    await page.getByTestId('live-status').filter({ hasText: 'Live' }).waitFor();
    const cards = page.locator('li.alert');
    await cards.nth(49).waitFor();
    expect(await cards.count()).to.equal(50);
    const more = page.getByRole('button', { name: 'Show more alerts' });
    await showAll(more, cards);
    expect(await cards.count()).to.equal(total);
    expect(await page.locator('.load-more').count()).to.equal(0);
    const marks = await page.locator('li.alert .alert-head strong').allTextContents();
    expect(marks).to.include.members(texts);
    expect(new Set(await cards.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-alert-id')))).size).to.equal(total);

    // Triage of an alert of a later page: the list keeps its length.
    const oldest = page.locator('li.alert', { hasText: texts[0]! });
    await oldest.getByRole('button', { name: `Acknowledge alert on ${texts[0]}` }).click();
    await oldest.getByTestId('alert-status').filter({ hasText: 'acknowledged' }).waitFor();
    expect(await cards.count()).to.equal(total);

    // A new alert arrives live, at the top, above every page loaded.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await add('Maple Paging live');
    await app.server.watchEvaluator.catchUp();
    await cards.first().filter({ hasText: 'Maple Paging live' }).waitFor({ timeout: 20_000 });
    expect(await cards.count()).to.equal(total + 1);

    // Another filter starts again from its first page, with the control back.
    await page.locator('select').selectOption('all');
    await page.waitForFunction(() => document.querySelectorAll('li.alert').length === 50);
    await more.waitFor();
    await page.locator('select').selectOption('acknowledged');
    await page.locator('li.alert', { hasText: texts[0]! }).waitFor();
    expect(await page.locator('li.alert', { hasText: 'Maple Paging 001' }).count()).to.equal(0);
    await page.locator('select').selectOption('open');
    await page.waitForFunction(() => document.querySelectorAll('li.alert').length === 50);
    await more.waitFor();
  });

  it('shows every deadline of a month longer than the timeline shows through "Show all N", page by page, each once and in order', async () => {
    // Copies of a mark due within the year share its deadlines: its month gets more than a page of them.
    const start = new Date();
    const monthStart = (offset: number) => new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + offset, 1)).toISOString().slice(0, 10);
    const renewals = (await ok<{ data: Array<{ id: string; name: string }> }>(await send(app, 'GET', '/v1/portfolios?limit=100'))).data.find(
      (portfolio) => portfolio.name === 'Renewals',
    );
    const timeline = await ok<{ data: Array<{ trademark_id: string; due_date: string }> }>(
      await send(app, 'GET', `/v1/portfolios/${renewals?.id}/deadlines?due_before=${monthStart(12)}&limit=100`),
    );
    const source = timeline.data.find((row) => row.due_date >= monthStart(0));
    expect(source, 'a deadline within the year').to.not.equal(undefined);
    const month = source!.due_date.slice(0, 7);
    const marks = app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks);
    const mark = (await marks.findOne({ _id: source!.trademark_id }))!;
    const copies: string[] = [];
    for (let i = 0; i < 110; i++) {
      const application_number = `${mark.application_number}D${i}`;
      const copy: TrademarkDoc = { ...mark, _id: catalogId('tm_', mark.office_code, application_number), application_number, owner_ids: [] };
      await marks.insertOne(copy);
      copies.push(copy._id);
    }
    const docket = await ok<{ id: string }>(await send(app, 'POST', '/v1/portfolios', { name: 'Docket', trademark_ids: [mark._id, ...copies] }), 201);
    // What the month holds, in the timeline's order, as the REST list pages it.
    const expected: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const listed: { data: Array<{ trademark_id: string; due_date: string; name: string }>; pagination: { cursor: string | null } } = await ok(
        await send(app, 'GET', `/v1/portfolios/${docket.id}/deadlines?due_before=${monthStart(12)}&limit=100${query}`),
      );
      for (const row of listed.data) if (row.due_date.startsWith(`${month}-`)) expected.push(`#/marks/${row.trademark_id}|${row.due_date}|${row.name}`);
      cursor = listed.pagination.cursor;
    } while (cursor !== null);
    expect(expected.length).to.be.greaterThan(100);

    const { page } = await open();
    await signIn(page, app.keys.full);
    await go(page, 'Deadlines');
    await page.getByLabel('Portfolio').selectOption({ label: 'Docket' });
    const group = page.locator('ol.timeline > li').filter({ has: page.getByRole('heading', { level: 3, name: month }) });
    const rows = group.locator('li.deadline');
    await group.getByText(`(${expected.length})`).waitFor();
    expect(await rows.count()).to.equal(20);
    expect(await group.textContent()).not.to.match(/and \d+ more/);
    const all = group.getByRole('button', { name: `Show all ${expected.length} deadlines due in ${month}` });
    await all.click();
    await rows.nth(20).waitFor();
    expect(await all.count()).to.equal(0);
    expect(await rows.count()).to.equal(100);
    // The control of the next pages says how many are left.
    await group.getByRole('button', { name: `Show more deadlines due in ${month} (${expected.length - 100} left)` }).waitFor();
    const more = group.getByRole('button', { name: new RegExp(`^Show more deadlines due in ${month} \\(\\d+ left\\)$`) });
    await showAll(more, rows);
    expect(await rows.count()).to.equal(expected.length);
    expect(await group.locator('.load-more').count()).to.equal(0);
    expect(await group.getByRole('button').count()).to.equal(0);
    const shown = await rows.evaluateAll((elements) =>
      elements.map((element) => {
        const link = element.querySelector('a')?.getAttribute('href') ?? '';
        const due = element.querySelector('time')?.getAttribute('datetime') ?? '';
        // The deadline's name is the text between the date and the mark: "… · name · mark".
        const name = (element.textContent ?? '').split(' · ')[1] ?? '';
        return `${link}|${due}|${name}`;
      }),
    );
    expect(shown).to.deep.equal(expected);
  });

  it('fits a phone-width screen without sideways scrolling', async () => {
    const phone = await open({ width: 390, height: 844 });
    await signIn(phone.page, app.keys.full);
    await phone.page.locator('figure.chart canvas').first().waitFor();
    for (const title of ['Overview', 'Alerts', 'Watches'] as const) {
      await go(phone.page, title);
      const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${title} at 390 px`).to.be.at.most(0);
    }
    await phone.page.screenshot({ path: join(SCREENSHOTS, 'dashboard-phone.png'), fullPage: true });
  });

  it("another organization's key sees none of the first organization's alerts or watches", async () => {
    const other = await open();
    await signIn(other.page, app.keys.otherOrg);
    await go(other.page, 'Alerts');
    await other.page.locator('select').selectOption('all');
    await other.page.getByText('No alerts.').waitFor();
    await go(other.page, 'Watches');
    await other.page.getByText('No watches yet.').waitFor();
    expect(await other.page.locator('main').textContent()).not.to.include('NZ class 9');
    await other.page.goto(`${app.baseUrl}/dashboard#/alerts`);
    await other.page.getByRole('heading', { level: 1, name: 'Alerts' }).waitFor();
    expect(await other.page.locator('main').textContent()).not.to.include('Tui Beacon');
  });
});
