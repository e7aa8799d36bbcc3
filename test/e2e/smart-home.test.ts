// Issue 37 in the browser, against the Home Assistant and Frigate fakes: on a 390 px phone a member
// sees a camera event with its proxied snapshot, turns the kitchen light on and sees a change Home
// Assistant makes arrive live; unlocking the front door asks for a confirmation first; they star
// two devices and switch them from the home screen's Smart home widget (the lock through the same
// confirmation); in chat, unlocking is only offered as a button they press; a child sees no lock at
// all; the admin page shows the connection and the household's choices at 1280 px. axe finds
// nothing serious. Needs the built web app (`npm run build:web`).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFrigate, type FakeFrigate } from '../fakes/frigate.js';
import { startFakeHomeAssistant, type FakeHomeAssistant } from '../fakes/home-assistant.js';
import { CHAT_MODEL, startFakeModelRuntime, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, DESKTOP, gone, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('smart home in the browser', () => {
  let fake: FakeHomeAssistant;
  let frigate: FakeFrigate;
  let runtime: FakeModelRuntime;
  let server: TestServer;
  let browser: Browser;
  const pages = createPageOpener(() => ({ browser, server }));

  beforeAll(async () => {
    requireBuiltWebApp();
    fake = await startFakeHomeAssistant();
    runtime = await startFakeModelRuntime();
    server = await startTestServer({ seed: 'household', config: { modelRuntimeUrl: runtime.url } });
    await server.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    expect((await server.admin.put('/api/admin/home-assistant/connection', { url: fake.url, token: fake.token })).body.connected).toBe(true);
    expect((await server.admin.put('/api/admin/home-assistant/exposed', { entityIds: ['light.kitchen', 'sensor.kitchen_temperature', 'lock.front_door'] })).status).toBe(200);
    expect((await server.admin.put('/api/tools/home_control/enabled', { enabled: true })).status).toBe(200);
    // the member's home screen shows the Smart home widget
    const canvas = [{ id: 'row-smart-home', cols: [{ toolId: 'smart-home', colSpan: 2 }] }];
    expect((await server.member.put('/api/home-layout', { header: { weather: false, jokes: false, sports: false, locked: false }, canvas })).status).toBe(200);
    frigate = await startFakeFrigate({ clips: true });
    expect((await server.admin.put('/api/admin/frigate', { url: frigate.url, notify: [server.users.member.id] })).status).toBe(200);
    frigate.addEvent('front_door', 'person');
    frigate.addEvent('garden', 'dog', { hasClip: true });
    expect(await server.handle.deps.cameras.poll()).toBe(2);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await server?.close();
    await fake?.close();
    await frigate?.close();
    await runtime?.close();
  });

  it('a member turns a light on, sees changes live, and confirms an unlock; a child sees no lock', async () => {
    const page = await pages.open('member', PHONE);
    await page.goto(`${server.url}/smart-home`);
    const light = page.getByRole('listitem', { name: 'Kitchen light' });
    await shown(light.getByText('Off', { exact: true }));
    await shown(page.getByRole('listitem', { name: 'Kitchen temperature' }).getByText('21.5 °C'));
    // the camera event, its snapshot proxied by Hearth
    const shot = page.getByRole('img', { name: 'Someone at front door' });
    await shown(shot);
    await expect.poll(() => shot.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(16);
    expect(await shot.getAttribute('src')).toMatch(/^\/api\/home-assistant\/events\//);
    // the clip, proxied too, plays from where the player asks
    const clip = page.getByRole('link', { name: 'Watch the clip of an animal (dog) at garden' });
    const clipUrl = (await clip.getAttribute('href'))!;
    expect(clipUrl).toMatch(/^\/api\/home-assistant\/events\/.+\/clip$/);
    const ranged = await page.request.get(`${server.url}${clipUrl}`, { headers: { range: 'bytes=0-99' } });
    expect(ranged.status()).toBe(206);
    expect(ranged.headers()['content-type']).toBe('video/mp4');
    await expectNoSeriousA11yViolations(page, '/smart-home (phone)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    await light.getByRole('button', { name: 'Turn on Kitchen light' }).click();
    await shown(light.getByText('On, 100%'));
    expect(fake.states.get('light.kitchen')?.state).toBe('on');
    // a change made in Home Assistant itself arrives over the stream
    fake.setState('light.kitchen', 'on', { friendly_name: 'Kitchen light', brightness: 64, supported_color_modes: ['brightness'] });
    await shown(light.getByText('On, 25%'));

    const door = page.getByRole('listitem', { name: 'Front door' });
    await door.getByRole('button', { name: 'Unlock Front door' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Unlock Front door?' });
    await shown(dialog);
    expect(fake.states.get('lock.front_door')?.state).toBe('locked');
    await expectNoSeriousA11yViolations(page, '/smart-home unlock confirmation (phone)');
    await dialog.getByRole('button', { name: 'Unlock' }).click();
    await gone(dialog);
    await shown(door.getByText('Unlocked'));
    expect(fake.states.get('lock.front_door')?.state).toBe('unlocked');

    // favourites: starred on the page, switched from the home screen widget
    for (const name of ['Kitchen light', 'Front door']) {
      const star = page.getByRole('button', { name: `Add ${name} to favourites` });
      await star.click();
      await shown(page.getByRole('button', { name: `Remove ${name} from favourites` }));
    }
    await page.goto(`${server.url}/`);
    const widget = page.getByTestId('widget-smart-home');
    const wLight = widget.getByRole('listitem', { name: 'Kitchen light' });
    await shown(wLight.getByText('On, 25%'));
    await expectNoSeriousA11yViolations(page, 'home screen Smart home widget (phone)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await wLight.getByRole('button', { name: 'Turn off Kitchen light' }).click();
    await shown(wLight.getByText('Off', { exact: true }));
    expect(fake.states.get('light.kitchen')?.state).toBe('off');
    const wDoor = widget.getByRole('listitem', { name: 'Front door' });
    await wDoor.getByRole('button', { name: 'Lock Front door' }).click();
    const lockDialog = page.getByRole('alertdialog', { name: 'Lock Front door?' });
    await shown(lockDialog);
    expect(fake.states.get('lock.front_door')?.state).toBe('unlocked');
    await lockDialog.getByRole('button', { name: 'Lock' }).click();
    await shown(wDoor.getByText('Locked', { exact: true }));
    expect(fake.states.get('lock.front_door')?.state).toBe('locked');

    // chat only offers the unlock as a button the member presses
    runtime.toolScript = (req) => (req.messages.at(-1)?.role === 'user' ? [{ function: { name: 'home_control', arguments: { entity: 'front door', service: 'unlock' } } }] : null);
    await page.goto(`${server.url}/chat`);
    await page.getByRole('textbox', { name: 'Your message' }).fill('Unlock the front door');
    await page.getByRole('button', { name: 'Send' }).click();
    const proposal = page.getByTestId('home-action-proposal');
    await shown(proposal.getByRole('button', { name: 'Unlock Front door' }));
    expect(fake.states.get('lock.front_door')?.state).toBe('locked');
    await expectNoSeriousA11yViolations(page, '/chat with a proposed unlock (phone)');
    await proposal.getByRole('button', { name: 'Unlock Front door' }).click();
    await shown(proposal.getByText('Done: Front door is now unlocked.'));
    expect(fake.states.get('lock.front_door')?.state).toBe('unlocked');
    runtime.toolScript = null;

    // the member becomes a child: guarded devices are hidden by default
    expect((await server.admin.put(`/api/admin/content/members/${server.users.member.id}`, { level: 'child' })).status).toBe(200);
    await page.goto(`${server.url}/smart-home`);
    await shown(page.getByRole('listitem', { name: 'Kitchen light' }));
    expect(await page.getByRole('listitem', { name: 'Front door' }).count()).toBe(0);
    expect(await page.getByText('Front door', { exact: true }).count()).toBe(0);
    expect(pages.pageErrors).toEqual([]);
  });

  it('the admin page shows the connection, what is shown and who may use what (and an empty favourites widget)', async () => {
    const page = await pages.open('admin', DESKTOP);
    // the home screen widget before any favourite says how to add one
    const canvas = [{ id: 'row-smart-home', cols: [{ toolId: 'smart-home', colSpan: 2 }] }];
    expect((await server.admin.put('/api/home-layout', { header: { weather: false, jokes: false, sports: false, locked: false }, canvas })).status).toBe(200);
    await page.goto(`${server.url}/`);
    await shown(page.getByTestId('widget-smart-home').getByText(/No favourites yet\. On the Smart home page, press the star/));
    await expectNoSeriousA11yViolations(page, 'home screen Smart home widget, no favourites (laptop)');
    await page.goto(`${server.url}/smart-home/manage`);
    await shown(page.getByText(/Connected to Home Assistant 2025\.1\.0/));
    await shown(page.getByRole('heading', { name: 'What the household sees' }));
    await shown(page.getByRole('heading', { name: 'Who may use what' }));
    await shown(page.getByText(/Sam asked unlock on lock\.front_door/).first());
    expect(await page.getByLabel('Long-lived access token').inputValue()).toBe('');
    await shown(page.getByText(/Frigate 0\.14\.1-f4f3cfa at /));
    expect(await page.getByRole('checkbox', { name: 'Sam' }).isChecked()).toBe(true);
    await expectNoSeriousA11yViolations(page, '/smart-home/manage (laptop)');
    expect(pages.pageErrors).toEqual([]);
  });
});
