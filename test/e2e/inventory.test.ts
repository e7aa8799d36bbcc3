// The Inventory in a real browser against a real Hearth: real OCR (tesseract) of a rating plate
// rendered with sharp, the web lookup against the SearXNG fake and the maker-site fake (a real PDF
// manual), the Ollama fake for identify, specs and the streamed answer. On a phone a member adds a
// device from a label photo (the camera input, reachable by keyboard), reviews what was read, saves
// it, sees "Looking up the manual…" turn into Open the manual, opens the maker's PDF in a new tab,
// asks it about descaling and sees the answer arrive word by word, and confirms the manual's
// "every 3 months" into the service log; with the AI down the review still shows what the text
// reader found, with why, and Cancel deletes the draft. On a laptop: warranty badges and the
// warranties view, category chips and search, list and grid, a pending card read again by itself,
// Homebox CSV out and back in, deleting a device as its adder and Add by hand. Only the list's
// loading and error states are made in the browser (page.route on that one request), since a real
// server answers too fast and too well for them. Axe finds no serious or critical violation on each
// screen. Needs `npm run build:web`.
import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { DESKTOP, gone, launchChromium, PHONE, requireBuiltWebApp, shown, signedInContext } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { CreateDeviceBody } from '../../server/modules/home-inventory/schema.js';
import { newDeviceRecord } from '../../server/modules/home-inventory/service.js';
import { searchAnswer, startManufacturerSite, type ManufacturerSite } from '../fakes/manufacturer-site.js';
import { CHAT_MODEL, fakeReconcile, startFakeModelRuntime, type FakeChatRequest, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { startFakeWebSearch, type FakeWebSearch } from '../fakes/web-search.js';
import { labelJpeg, type Plate } from '../fixtures/inventory/labels.js';
import { MANUAL_FACTS } from '../fixtures/inventory/manual-pdf.js';
import { HomeInventoryStore } from '../../server/modules/home-inventory/store.js';

function localDay(offsetDays = 0): string {
  const d = new Date();
  d.setDate(d.getDate() + offsetDays);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** Tabs from the top of the page until the element with this test id has focus (at most 40 presses). */
async function tabTo(page: Page, testId: string): Promise<boolean> {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((id) => document.activeElement?.getAttribute('data-testid') === id, testId)) return true;
  }
  return false;
}

/** The maker's rating plate on the coffee machine whose manual the maker-site fake serves. */
const PLATE: Plate = { brand: MANUAL_FACTS.brand.toUpperCase(), model: MANUAL_FACTS.model, serial: 'SN7301945520', voltage: '220-240V ~ 50Hz', power: '1450W' };
const DESCALE_ANSWER = 'Fill the tank with **descaler** and water, start the descaling programme, then rinse twice. Descale the machine every 3 months.';

/** The Ollama fake's answers for this household: the label reconciled, the lookup's specs, the descaling answer. */
function householdReplies(runtime: FakeModelRuntime) {
  return (req: FakeChatRequest): string => {
    const prompt = req.messages.map((m) => String(m.content ?? '')).join('\n');
    const fields = (req.format as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
    if (req.messages.some((m) => m.images?.length)) return /transcribe/i.test(prompt) ? runtime.visionTranscript : 'A silver espresso machine with a water tank at the back.';
    if ('serialNumber' in fields) return JSON.stringify(fakeReconcile(prompt));
    if (prompt.includes('household inventory app describe one device')) return JSON.stringify({ specs: { 'Water tank': '1.8 l' }, manualQuery: `${MANUAL_FACTS.brand} ${MANUAL_FACTS.model} owners manual pdf` });
    return DESCALE_ANSWER;
  };
}

describe('the Inventory in the browser against the real server', () => {
  let server: TestServer;
  let browser: Browser;
  let site: ManufacturerSite;
  let search: FakeWebSearch;
  let runtime: FakeModelRuntime;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];

  async function open(device: typeof PHONE | typeof DESKTOP): Promise<{ page: Page; context: BrowserContext }> {
    const context = await signedInContext(browser, server.url, server.member.cookie!, device);
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    return { page, context };
  }

  beforeAll(async () => {
    requireBuiltWebApp();
    site = await startManufacturerSite();
    search = await startFakeWebSearch(searchAnswer(site));
    // words arrive one by one, far enough apart for the page to show each
    runtime = await startFakeModelRuntime({ chunkDelayMs: 60 });
    runtime.chatReply = householdReplies(runtime);
    server = await startTestServer({ seed: 'household', config: { webSearchUrl: search.url, fetchAllowOrigins: [site.url], modelRuntimeUrl: runtime.url } });
    await server.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
    await Promise.all([site?.close(), search?.close(), runtime?.close()]);
    expect(pageErrors).toEqual([]);
  });

  it('on a phone: a label photo read by OCR, reviewed and saved, the lookup finds the manual, it opens, answers a question as it streams and suggests a service', async () => {
    const { page, context } = await open(PHONE);
    await page.goto(`${server.url}/inventory`);
    await shown(page.getByText('Nothing in the inventory yet'));
    await expectNoSeriousA11yViolations(page, '/inventory (empty, real server)');

    const input = page.getByTestId('add-by-photo');
    expect(await input.getAttribute('capture')).toBe('environment');
    expect(await input.getAttribute('accept')).toBe('image/*');
    expect(await tabTo(page, 'add-by-photo')).toBe(true);

    // the search is held back, so the lookup the save starts is seen pending
    await search.setMode('slow', { slowMs: 4_000 });
    await input.setInputFiles({ name: 'label.jpg', mimeType: 'image/jpeg', buffer: await labelJpeg(PLATE) });
    const review = page.getByTestId('device-review');
    // the label is read on the server (the OCR engine, then the AI): the page says so meanwhile,
    // and on a busy 2-core machine the first read (the engine's start-up) can take half a minute
    await shown(page.getByTestId('add-progress'));
    await shown(review, 60_000);
    await expect.poll(() => review.getByLabel('Model').inputValue(), { timeout: 30_000 }).toBe(PLATE.model);
    expect(await review.getByLabel('Serial number').inputValue()).toBe(PLATE.serial);
    expect(await review.getByLabel('Brand').inputValue()).toBe(PLATE.brand);
    expect(await review.getByLabel('Specification 1: value').inputValue()).toBe(PLATE.voltage);
    await shown(page.getByTestId('identify-confidence'));
    await page.getByText('What the label says').click();
    await shown(page.getByTestId('label-text').getByText(PLATE.serial));
    await expectNoSeriousA11yViolations(page, '/inventory (review, real server)');

    await review.getByLabel('Where it is').fill('Kitchen');
    await review.getByRole('button', { name: 'Save device' }).tap();
    await shown(page.getByRole('heading', { name: `${PLATE.brand} ${PLATE.model}`, level: 1 }));
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const stored = (await server.member.get(`/api/home/devices/${id}`)).body.device;
    expect(stored).toMatchObject({ brand: PLATE.brand, model: PLATE.model, serialNumber: PLATE.serial, location: 'Kitchen' });
    // the label photo is the main photo, served (and thumbnailed) by Hearth
    expect(stored.mainPhotoId).toBeTruthy();
    await expect.poll(() => page.getByAltText(`${PLATE.brand} ${PLATE.model}, main photo`).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    await shown(page.getByTestId('lookup-state').getByText('Looking up the manual'));
    await search.setMode('ok');
    await shown(page.getByTestId('open-manual'), 30_000);
    await gone(page.getByTestId('lookup-state'));
    await shown(page.getByTestId('manual-text-state').getByText('Hearth has read the manual'));
    await shown(page.getByTestId('links-section').getByRole('link', { name: /How to descale the Brewtide CM-4200/ }));
    await expectNoSeriousA11yViolations(page, '/inventory/:id (real server)');

    const [tab, manual] = await Promise.all([
      context.waitForEvent('page'),
      context.waitForEvent('response', (r) => new URL(r.url()).pathname === `/api/home/devices/${id}/manual`),
      page.getByTestId('open-manual').tap(),
    ]);
    expect(manual.status()).toBe(200);
    expect(manual.headers()['content-type']).toBe('application/pdf');
    // the tab shows Chromium's PDF viewer; the bytes it was given are the maker's manual
    const bytes = await (await context.request.get(manual.url())).body();
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.equals(site.manual)).toBe(true);
    await tab.close();

    // the answer's text as it grows, seen from inside the page
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { answerTexts: string[] }).answerTexts = seen;
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="ask-answer"]')?.textContent ?? '';
        if (text && seen[seen.length - 1] !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByLabel(`Your question about ${PLATE.brand} ${PLATE.model}`).fill('How do I descale it?');
    await page.getByRole('button', { name: 'Ask', exact: true }).tap();
    const answer = page.getByTestId('ask-answer');
    await shown(page.locator('[data-testid="ask-answer"][data-state="complete"]'), 30_000);
    await shown(answer.locator('strong', { hasText: 'descaler' }));
    await shown(answer.getByText('Descale the machine every 3 months'));
    await shown(page.getByTestId('ask-covered'));
    const texts = await page.evaluate(() => (window as unknown as { answerTexts: string[] }).answerTexts);
    // tokens arrived one after another: the page showed the answer part-written before it was whole
    expect(texts.filter((t) => t.includes('Fill the tank') && !t.includes('every 3 months')).length).toBeGreaterThan(0);

    // the manual's "every 3 months" becomes a service-log entry once confirmed
    const suggestion = page.getByTestId('maintenance-suggestions').getByRole('listitem').filter({ hasText: 'every 3 months' });
    await shown(suggestion);
    await suggestion.getByRole('button', { name: 'Add to service log' }).tap();
    const dialog = page.getByTestId('service-dialog');
    const what = await dialog.getByLabel('What was done').inputValue();
    expect(what).toMatch(/descale/i);
    await dialog.getByRole('button', { name: 'Add to service log' }).tap();
    await shown(page.getByTestId('service-entry').getByText(what));
    const log = (await server.member.get(`/api/home/devices/${id}`)).body.device.serviceLog;
    expect(log).toEqual([expect.objectContaining({ description: what })]);
  });

  it('on a phone: with the AI down the review shows what the text reader found and why; Cancel deletes the draft', async () => {
    const { page } = await open(PHONE);
    const count = async () => (await server.member.get('/api/home/devices')).body.devices.length as number;
    const before = await count();
    await runtime.setMode('down');
    try {
      await page.goto(`${server.url}/inventory`);
      await shown(page.getByTestId('add-by-photo'));
      await page.getByTestId('add-by-photo').setInputFiles({ name: 'label.jpg', mimeType: 'image/jpeg', buffer: await labelJpeg(PLATE) });
      await shown(page.getByTestId('identify-why').getByText(/The AI helper is not running right now/), 30_000);
      const review = page.getByTestId('device-review');
      expect(await review.getByLabel('Model').inputValue()).toBe(PLATE.model);
      expect(await review.getByLabel('Serial number').inputValue()).toBe(PLATE.serial);
      // the label's text is open by itself when the AI did not help
      await shown(page.getByTestId('label-text').getByText(PLATE.serial));
      expect(await page.getByText(/\b503\b|model_runtime|unavailable/).count()).toBe(0);
      await expectNoSeriousA11yViolations(page, '/inventory (review, AI down, real server)');
      expect(await count()).toBe(before + 1);
      await review.getByRole('button', { name: 'Cancel' }).tap();
      await gone(review);
      await expect.poll(count).toBe(before);
    } finally {
      await runtime.setMode('ok');
    }
  });

  it('the list\'s loading state, then its error state with Try again (the one list request held, then refused, in the browser)', async () => {
    const { page } = await open(PHONE);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let refuse = false;
    await page.route(/\/api\/home\/devices(\?|$)/, async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      await held;
      if (refuse) return route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'internal_error', message: 'Something went wrong.' } }) });
      return route.continue();
    });
    refuse = true;
    await page.goto(`${server.url}/inventory`);
    await shown(page.getByRole('status').getByText('Loading the inventory…'));
    release();
    await shown(page.getByRole('alert').getByText('The inventory did not load'), 30_000);
    expect(await page.getByText(/\b500\b|internal_error/).count()).toBe(0);
    refuse = false;
    await page.getByRole('button', { name: 'Try again' }).click();
    await shown(page.getByTestId('device-list'));
  });

  it('on a laptop: warranties with one ending soon, Homebox CSV out and back in, search and category chips, and deleting a device its adder added', async () => {
    // the household's devices, written over the API by Sam (no brand or model, so no lookup runs)
    const add = async (body: Record<string, unknown>) => {
      const r = await server.member.post('/api/home/devices', body);
      expect(r.status).toBe(201);
      return r.body.device.id as string;
    };
    const washer = await add({ name: 'Washing machine', category: 'appliance', location: 'Utility room' });
    expect((await server.member.patch(`/api/home/devices/${washer}`, { warrantyExpires: localDay(12) })).status).toBe(200);
    await add({ name: 'Old kettle', category: 'appliance', location: 'Kitchen', warrantyExpires: localDay(-30) });
    await add({ name: 'Cordless drill', category: 'tool', location: 'Garage' });

    const { page } = await open(DESKTOP);
    await page.goto(`${server.url}/inventory`);
    const list = page.getByTestId('device-list');
    const card = (name: string) => list.getByTestId('device-card').filter({ hasText: name });
    await shown(card('Washing machine').getByText('Warranty ends in 12 days'));
    await shown(card('Old kettle').getByText('Warranty ended'));
    const before = await list.getByTestId('device-card').count();
    await expectNoSeriousA11yViolations(page, '/inventory (laptop, real server)');

    // category chips and search, answered by the server's own filters
    await page.getByRole('button', { name: 'Tools 1' }).click();
    await expect.poll(() => list.getByTestId('device-card').count()).toBe(1);
    await shown(card('Cordless drill'));
    await page.getByRole('button', { name: /^All/ }).click();
    await expect.poll(() => list.getByTestId('device-card').count()).toBe(before);
    await page.getByRole('searchbox', { name: 'Search the inventory' }).fill('utility');
    await expect.poll(() => list.getByTestId('device-card').count()).toBe(1);
    await shown(card('Washing machine'));
    await page.getByRole('button', { name: 'Clear search' }).click();
    await expect.poll(() => list.getByTestId('device-card').count()).toBe(before);

    await page.getByRole('button', { name: 'List' }).click();
    await shown(page.locator('.inv-list.card-list--list'));
    await page.getByRole('button', { name: 'Grid' }).click();
    await shown(page.locator('.inv-list.card-list--grid'));

    // the warranties view: the one ending soon, the one that ended
    await page.getByRole('link', { name: 'Warranties' }).click();
    await shown(page.getByRole('heading', { name: 'Warranties', level: 1 }));
    const row = (name: string) => page.getByTestId('warranty-row').filter({ hasText: name });
    await shown(row('Washing machine').getByText('Ends in 12 days'));
    await shown(row('Old kettle').getByText(/^Ended /));
    await expectNoSeriousA11yViolations(page, '/inventory/warranties (real server)');

    // Homebox CSV out; the drill deleted by Sam, who added it; the same file back in through POST /import
    await page.getByRole('link', { name: 'Inventory' }).first().click();
    await shown(list);
    await page.getByRole('button', { name: 'Import and export' }).click();
    const dialog = page.getByTestId('inventory-import-export');
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('link', { name: 'Export for Homebox (CSV)' }).click()]);
    expect(download.suggestedFilename()).toBe('hearth-inventory-homebox.csv');
    const csv = await readFile((await download.path())!);
    expect(csv.toString('utf8')).toMatch(/HB\.name/);
    expect(csv.toString('utf8')).toContain('Cordless drill');
    await dialog.getByRole('button', { name: 'Close' }).last().click();

    await card('Cordless drill').getByRole('link').first().click();
    await shown(page.getByRole('heading', { name: 'Cordless drill', level: 1 }));
    const drill = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await shown(list);
    await expect.poll(() => list.getByTestId('device-card').count()).toBe(before - 1);
    expect((await server.member.get(`/api/home/devices/${drill}`)).status).toBe(404);

    await page.getByRole('button', { name: 'Import and export' }).click();
    await dialog.getByTestId('import-file').setInputFiles({ name: 'homebox.csv', mimeType: 'text/csv', buffer: csv });
    await dialog.getByRole('button', { name: 'Import' }).click();
    const result = dialog.getByTestId('import-result');
    await shown(result.getByText('1 device was added.'));
    // the rows still in the inventory are not added twice, each with its sentence
    await shown(result.getByText(`${before - 1} rows were skipped:`));
    await shown(result.getByText(/“Washing machine” is already in the inventory/));
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await shown(card('Cordless drill'));
    expect(await list.getByTestId('device-card').count()).toBe(before);
    expect((await server.member.get(`/api/home/devices/${drill}`)).body.device).toMatchObject({ name: 'Cordless drill', category: 'tool', location: 'Garage' });

    // a device being looked up shows so on its card, and the list is read again by itself
    await search.setMode('slow', { slowMs: 60_000 });
    const tv = await add({ name: 'Television', brand: 'Vista', model: 'TV-55', category: 'electronics' });
    expect((await server.member.get(`/api/home/devices/${tv}`)).body.device.lookupStatus).toBe('pending');
    let reads = 0;
    page.on('request', (r) => void (new URL(r.url()).pathname === '/api/home/devices' && r.method() === 'GET' && reads++));
    await page.reload();
    await shown(card('Television').getByTestId('lookup-badge').getByText('Looking up…'));
    const seen = reads;
    await expect.poll(() => reads, { timeout: 10_000 }).toBeGreaterThan(seen);
    await search.setMode('ok');

    await page.getByRole('button', { name: 'Add by hand' }).click();
    const form = page.getByTestId('device-review');
    await form.getByRole('button', { name: 'Save device' }).click();
    await shown(form.getByText('Give the device a name'));
    await form.getByLabel('Name', { exact: true }).fill('Garden hose reel');
    await form.getByLabel('Kind of thing').selectOption('tool');
    await form.getByRole('button', { name: 'Save device' }).click();
    await shown(page.getByRole('heading', { name: 'Garden hose reel', level: 1 }));
    await shown(page.getByTestId('lookup-state').getByText(/Add the brand and the model to look this device up/));
    const reel = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    expect((await server.member.get(`/api/home/devices/${reel}`)).body.device).toMatchObject({ name: 'Garden hose reel', category: 'tool', lookupStatus: 'skipped' });
  });
  it('on a phone: a price written "$2,199" is taken, and when and where a device was made are two fields', async () => {
    const { page } = await open(PHONE);
    await page.goto(`${server.url}/inventory`);
    await page.getByRole('button', { name: 'Add by hand' }).click();
    const form = page.getByTestId('device-review');
    await form.getByLabel('Name', { exact: true }).fill('Bosch washer');
    await form.getByLabel('Made on').fill('2023-04');
    await form.getByLabel('Made in').fill('Germany');
    await form.getByLabel('Price').fill('$2,199');
    await expectNoSeriousA11yViolations(page, '/inventory (add by hand, made on and made in)');
    await form.getByRole('button', { name: 'Save device' }).click();
    await shown(page.getByRole('heading', { name: 'Bosch washer', level: 1 }));
    const details = page.getByTestId('device-details');
    await shown(details.getByText('Germany'));
    await shown(details.getByText('2023-04'));
    await shown(details.getByText('2,199.00'));
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    expect((await server.member.get(`/api/home/devices/${id}`)).body.device).toMatchObject({ manufacturedDate: '2023-04', countryOfOrigin: 'Germany', purchasePrice: 2199 });
    // a price that is not one still gets a sentence
    await page.getByRole('button', { name: /^Edit/ }).first().click();
    const edit = page.locator('form.inv-form');
    await edit.getByLabel('Price').fill('about two grand');
    await edit.getByRole('button', { name: /^Save/ }).click();
    await shown(edit.getByText(/Write the price as an amount, like/));
  });

  // last: it fills the inventory past one page
  it('on a phone: a long inventory comes a page at a time, and Show more brings the rest', async () => {
    const homeStore = new HomeInventoryStore(server.handle.deps.db);
    const now = new Date().toISOString();
    const have = (await server.member.get('/api/home/devices')).body.total as number;
    await homeStore.transaction(async (tx) => {
      for (let i = 0; i < 130 - have; i++) await tx.insertDevice(newDeviceRecord(`paging-${i}`, CreateDeviceBody.parse({ name: `Zz lamp ${String(i).padStart(3, '0')}` }), null, now));
    });
    const { page } = await open(PHONE);
    await page.goto(`${server.url}/inventory`);
    const cards = page.getByTestId('device-list').getByTestId('device-card');
    await shown(page.getByText('Showing 100 of 130 devices.'));
    expect(await cards.count()).toBe(100);
    await page.getByRole('button', { name: 'Show more' }).click();
    await expect.poll(() => cards.count()).toBe(130);
    await gone(page.getByRole('button', { name: 'Show more' }));
  });
});

describe('the web search address, set by an admin in the Inventory', () => {
  let server: TestServer;
  let browser: Browser;
  let site: ManufacturerSite;
  let search: FakeWebSearch;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];

  async function open(cookie: string, device: typeof PHONE | typeof DESKTOP): Promise<Page> {
    const context = await signedInContext(browser, server.url, cookie, device);
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    return page;
  }

  beforeAll(async () => {
    requireBuiltWebApp();
    site = await startManufacturerSite();
    search = await startFakeWebSearch(searchAnswer(site));
    // no WEB_SEARCH_URL: the fake search server's origin stands in for a public one
    server = await startTestServer({ seed: 'household', config: { fetchAllowOrigins: [site.url, search.url] } });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
    await Promise.all([site?.close(), search?.close()]);
    expect(pageErrors).toEqual([]);
  });

  it('a member is told in words, with no Try again; an admin sets the address (a home-network one is refused) and the device is looked up', async () => {
    const created = await server.member.post('/api/home/devices', { name: 'Coffee machine', brand: MANUAL_FACTS.brand, model: MANUAL_FACTS.model });
    expect(created.status).toBe(201);
    const id = created.body.device.id as string;
    await expect.poll(async () => (await server.member.get(`/api/home/devices/${id}`)).body.device.lookupStatus, { timeout: 15_000 }).toBe('skipped');

    const phone = await open(server.member.cookie!, PHONE);
    await phone.goto(`${server.url}/inventory/${encodeURIComponent(id)}`);
    const state = phone.getByTestId('lookup-state');
    await shown(state.getByText(/No web search is set up yet/));
    expect(await state.textContent()).not.toMatch(/\b[A-Z]+_[A-Z_]+\b/);
    await expect.poll(() => phone.getByTestId('web-search-form').count()).toBe(0);
    expect(await state.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    await expectNoSeriousA11yViolations(phone, '/inventory/:id (no web search, member)');

    const laptop = await open(server.admin.cookie!, DESKTOP);
    await laptop.goto(`${server.url}/inventory/${encodeURIComponent(id)}`);
    const form = laptop.getByTestId('web-search-form');
    await shown(form);
    expect(await laptop.getByTestId('lookup-state').getByRole('button', { name: 'Try again' }).count()).toBe(0);
    await expectNoSeriousA11yViolations(laptop, '/inventory/:id (no web search, admin)');
    await form.getByLabel('Web search address').fill('http://192.168.1.20:8888');
    await form.getByRole('button', { name: 'Save and look up' }).click();
    await shown(form.getByText(/Hearth only searches through a public web address/));
    expect((await server.admin.get('/api/home/web-search')).body.webSearch.configured).toBe(false);

    const before = search.requests.length;
    await form.getByLabel('Web search address').fill(search.url);
    await form.getByRole('button', { name: 'Save and look up' }).click();
    // the lookup runs and ends: the banner goes, the manual link arrives
    await gone(laptop.getByTestId('lookup-state'), 30_000);
    expect(search.requests.length).toBeGreaterThan(before);
    expect((await server.member.get(`/api/home/devices/${id}`)).body.device.lookupStatus).toBe('complete');
    expect((await server.admin.get('/api/home/web-search')).body.webSearch).toMatchObject({ configured: true, url: search.url });
  });
});
