// Voice in the browser (issue 34), on the real engines: the Memos page at 390 and 1280 px (empty,
// an uploaded recording written down, found by its words, deleted), the microphone explaining
// itself on a plain-http address, and a chat answer read aloud. Needs `npm run build:web`.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_MODEL, startFakeModelRuntime, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { startFakeOpenAiSpeech } from '../fakes/openai-speech.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, DESKTOP, gone, launchChromium, PHONE, requireBuiltWebApp, shown, signedInContext, toastSays } from '../harness/browser.js';
import { newItemRecord } from '../../server/modules/reader/item-rows.js';
import { ReaderStore } from '../../server/modules/reader/store.js';
import { fliteWav, SYSTEM_PATH } from '../harness/speech.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

const NAME = 'hearth-test';

/** Every audio buffer the page schedules, with when it starts and how long it lasts (read with scheduledAudio). */
async function recordScheduledAudio(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { scheduled: Array<{ at: number; duration: number }> };
    w.scheduled = [];
    const start = AudioBufferSourceNode.prototype.start;
    AudioBufferSourceNode.prototype.start = function (this: AudioBufferSourceNode, when?: number, ...rest: number[]) {
      w.scheduled.push({ at: when ?? 0, duration: this.buffer?.duration ?? 0 });
      return start.call(this, when, ...rest);
    };
  });
}
const scheduledAudio = (page: Page) => page.evaluate(() => (window as unknown as { scheduled: Array<{ at: number; duration: number }> }).scheduled);

/** flite's "Hey Jarvis." then a question, with quiet between and after (a 16 kHz mono WAV). */
function wakeClip(dir: string): string {
  const pcm = (text: string, name: string) => {
    const wav = fliteWav(dir, name, text).bytes;
    const at = wav.indexOf('data') + 8;
    return wav.subarray(at);
  };
  const quiet = (seconds: number) => Buffer.alloc(Math.round(16_000 * seconds) * 2);
  const data = Buffer.concat([quiet(0.5), pcm('Hey Jarvis.', 'hey'), quiet(0.7), pcm('Remind me to buy milk tomorrow.', 'question'), quiet(3)]);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16_000, 24);
  header.writeUInt32LE(32_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  const file = path.join(dir, 'wake.wav');
  writeFileSync(file, Buffer.concat([header, data]));
  return file;
}

describe('voice in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let runtime: FakeModelRuntime;
  const temp = makeTempDir('hearth-voice-e2e-');
  const pages = createPageOpener(() => ({ browser, server }));

  beforeAll(async () => {
    requireBuiltWebApp();
    runtime = await startFakeModelRuntime({ chatReply: 'The oven is preheating now. Dinner will be ready at six. Please set the table for four.' });
    server = await startTestServer({ seed: 'household', config: { searchPath: SYSTEM_PATH, hostName: NAME, modelRuntimeUrl: runtime.url } });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    await server.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    // the fake microphone says a flite sentence over and over
    const spoken = fliteWav(temp.dir, 'spoken', 'Remind me to buy milk tomorrow.');
    browser = await launchChromium([
      `--host-resolver-rules=MAP ${NAME} 127.0.0.1`,
      '--autoplay-policy=no-user-gesture-required',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-audio-capture=${spoken.file}`,
    ]);
  });
  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await server?.close();
    await runtime?.close();
    temp.remove();
    expect(pages.pageErrors).toEqual([]);
  });

  it('Memos: empty, then an uploaded recording written down, found by its words and deleted (1280 px)', async () => {
    const wav = fliteWav(temp.dir, 'milk', 'Remind me to buy milk tomorrow.');
    const page = await pages.open('member', DESKTOP);
    await page.goto(`${server.url}/memos`);
    await shown(page.getByText('No memos yet'));
    // this computer itself is a secure origin: recording is offered
    await shown(page.getByTestId('record-button'));
    await expectNoSeriousA11yViolations(page);
    await page.getByTestId('memo-file').setInputFiles(wav.file);
    const text = page.getByTestId('memo-text');
    await shown(text, 30_000);
    expect(await text.textContent()).toMatch(/milk/);
    await page.getByLabel('Find a memo').fill('tomorrow milk');
    await shown(page.getByTestId('memo'));
    await page.getByLabel('Find a memo').fill('bread');
    await shown(page.getByText('No memo says “bread”.'));
    await page.getByLabel('Find a memo').fill('');
    // renamed in place
    await page.getByRole('button', { name: /^Rename / }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Milk reminder');
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Save name' }).click();
    await shown(page.getByRole('heading', { name: 'Milk reminder' }));
    expect((await server.member.get('/api/voice/memos')).body.memos[0].title).toBe('Milk reminder');
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Delete memo' }).click();
    await shown(page.getByText('No memos yet'));
    expect((await server.member.get('/api/voice/memos')).body.memos).toEqual([]);
  });

  it('on a plain-http address the microphone says why and how, and uploading still works (390 px)', async () => {
    const plain = `http://${NAME}:${new URL(server.url).port}`;
    const context = await signedInContext(browser, plain, server.member.cookie!, PHONE);
    const page = await context.newPage();
    await page.goto(`${plain}/memos`);
    const note = page.getByTestId('mic-unavailable');
    await shown(note);
    expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
    expect(await note.textContent()).toContain('Recording needs a secure connection');
    expect(await page.getByTestId('record-button').count()).toBe(0);
    expect(await page.getByTestId('memo-file').count()).toBe(1);
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: '/tmp/hearth-phone-memos-plain.png' });
    await context.close();
  });

  it('a memo’s page stays honest when the recording cannot be written down', async () => {
    const page = await pages.open('member', PHONE);
    await page.goto(`${server.url}/memos`);
    await shown(page.getByText('No memos yet'));
    const junk = `${temp.dir}/broken.webm`;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(junk, Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(300, 7)]));
    await page.getByTestId('memo-file').setInputFiles(junk);
    await shown(page.getByText('Hearth could not read that recording', { exact: false }), 30_000);
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Delete memo' }).click();
    await gone(page.getByTestId('memo'));
  });

  it('a chat answer is read aloud: three sentences scheduled back to back, without a gap (1280 px)', async () => {
    const page = await pages.open('member', DESKTOP);
    await recordScheduledAudio(page);
    await page.goto(`${server.url}/chat`);
    await page.getByRole('textbox', { name: 'Your message' }).fill('When is dinner?');
    await page.getByRole('button', { name: 'Send' }).click();
    const speak = page.getByTestId('speak-button');
    await shown(speak);
    await speak.click();
    await shown(page.getByRole('button', { name: 'Stop reading' }));
    await shown(page.getByRole('button', { name: 'Read aloud' }), 30_000);
    const scheduled = await scheduledAudio(page);
    const seconds = scheduled.reduce((n, s) => n + s.duration, 0);
    expect(seconds).toBeGreaterThan(3);
    for (let i = 1; i < scheduled.length; i++) expect(Math.abs(scheduled[i]!.at - (scheduled[i - 1]!.at + scheduled[i - 1]!.duration))).toBeLessThan(1e-6);
    await expectNoSeriousA11yViolations(page);
  });

  it('a Reader article longer than one request is read aloud piece by piece, the first piece short, until Stop (390 px)', async () => {
    const text = Array.from({ length: 60 }, (_, i) => `Step ${i + 1} of the overnight loaf is to wait a little longer.`).join(' ');
    const article = newItemRecord(
      { ownerId: server.users.member.id, type: 'offline', url: 'https://bread.example/loaf', title: 'An overnight loaf', siteName: 'bread.example', excerpt: text.slice(0, 120), contentHtml: `<p>${text}</p>`, contentText: text, archiveState: 'ready', thumbnailState: 'none' },
      new Date().toISOString(),
    );
    await new ReaderStore(server.handle.deps.db).insertMany([{ item: article, tags: [] }], new Date().toISOString());
    const page = await pages.open('member', PHONE);
    await recordScheduledAudio(page);
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/tts/stream')) asked.push(String(r.postDataJSON()?.text));
    });
    await page.goto(`${server.url}/reader/${article.id}`);
    await shown(page.getByTestId('reader-content'));
    await page.getByTestId('speak-button').tap();
    await shown(page.getByRole('button', { name: 'Stop reading' }));
    await expect.poll(() => asked.length, { timeout: 30_000 }).toBeGreaterThan(1);
    expect(asked[0]!.length).toBeLessThanOrEqual(300);
    expect(asked[0]).toMatch(/^Step 1 of the overnight loaf/);
    for (const piece of asked) expect(piece.length).toBeLessThanOrEqual(2_000);
    await page.waitForFunction(() => (window as unknown as { scheduled: unknown[] }).scheduled.length > 0);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Stop reading' }).tap();
    await shown(page.getByRole('button', { name: 'Read aloud' }));
    const after = asked.length;
    await page.waitForTimeout(1_000);
    expect(asked.length).toBe(after);
  });

  it('push-to-talk in chat: what the microphone heard is written down and sent (390 px)', async () => {
    const page = await pages.open('member', PHONE);
    await page.goto(`${server.url}/chat`);
    const talk = page.getByTestId('talk-button');
    await shown(talk);
    await talk.tap();
    await shown(page.getByRole('button', { name: 'Send what I said' }));
    // let the fake microphone say the sentence at least once
    await page.waitForTimeout(3_000);
    await page.getByRole('button', { name: 'Send what I said' }).tap();
    const said = page.locator('.chat-bubble__text').first();
    await shown(said, 30_000);
    expect(await said.textContent()).toMatch(/milk/);
    await shown(page.getByTestId('speak-button'));
    await expectNoSeriousA11yViolations(page);
  });

  it('on a plain-http address chat offers no microphone it cannot open', async () => {
    const plain = `http://${NAME}:${new URL(server.url).port}`;
    const context = await signedInContext(browser, plain, server.member.cookie!, DESKTOP);
    const page = await context.newPage();
    await page.goto(`${plain}/chat`);
    await shown(page.getByRole('textbox', { name: 'Your message' }));
    expect(await page.getByTestId('talk-button').count()).toBe(0);
    // voice mode says why it cannot listen here, and how to fix it
    await page.getByTestId('voice-mode-button').click();
    const why = page.getByTestId('voice-mode-unavailable');
    await shown(why);
    expect(await why.textContent()).toContain('secure connection');
    expect(await page.getByTestId('voice-mode-speak').count()).toBe(0);
    await expectNoSeriousA11yViolations(page);
    await context.close();
  });

  it('the admin’s Voice page: engines, the default voice, a speech server added, tested and removed, a wake word switched off (1280 px)', async () => {
    const fake = await startFakeOpenAiSpeech();
    try {
      const page = await pages.open('admin', DESKTOP);
      await page.goto(`${server.url}/admin/voice`);
      await shown(page.getByRole('heading', { name: 'Engines and defaults' }));
      await shown(page.getByTestId('no-speech-servers'));
      expect(await page.getByRole('list', { name: 'Engines on this computer' }).textContent()).toContain('Installed');
      await page.getByLabel('Default voice').selectOption('flite:awb');
      await toastSays(page, 'The default voice is saved.');
      expect((await server.admin.get('/api/admin/voice')).body.defaultVoice).toBe('flite:awb');

      await page.getByRole('textbox', { name: 'Name' }).fill('GPU box');
      await page.getByRole('textbox', { name: /^Address/ }).fill('http://192.168.1.20');
      await page.getByRole('button', { name: 'Add speech server' }).click();
      await shown(page.getByText('The address is http://host:port', { exact: false }));
      await page.getByRole('textbox', { name: /^Address/ }).fill(fake.url);
      await page.getByLabel(/^Key/).fill('sk-household');
      await page.getByRole('button', { name: 'Add speech server' }).click();
      const row = page.getByTestId('speech-server');
      await shown(row);
      expect(await row.textContent()).toContain('key set');
      expect(await page.content()).not.toContain('sk-household');
      await row.getByRole('button', { name: 'Test' }).click();
      await shown(page.getByTestId('speech-server-test'), 20_000);
      expect(await page.getByTestId('speech-server-test').textContent()).toMatch(/GPU box answered with/);
      await expectNoSeriousA11yViolations(page);
      await row.getByRole('button', { name: 'Remove' }).click();
      await page.getByRole('button', { name: 'Remove speech server' }).click();
      await shown(page.getByTestId('no-speech-servers'));

      await page.getByRole('checkbox', { name: 'Alexa' }).uncheck();
      await expect.poll(async () => (await server.member.get('/api/voice')).body.wakeWords.map((w: { id: string }) => w.id)).not.toContain('alexa');
      expect(await page.getByText('CC BY-NC-SA 4.0', { exact: false }).count()).toBeGreaterThan(0);
      await page.setViewportSize({ width: 390, height: 844 });
      await expectNoSeriousA11yViolations(page);
      await page.screenshot({ path: '/tmp/hearth-phone-voice-admin.png', fullPage: true });
      // the household's default voice back for the tests below
      expect((await server.admin.put('/api/admin/voice', { defaultVoice: null })).status).toBe(200);
    } finally {
      await fake.close();
    }
  });

  it('a member chooses their own voice and speed in their profile (390 px)', async () => {
    const page = await pages.open('member', PHONE);
    await page.goto(`${server.url}/profile`);
    await page.getByRole('combobox', { name: 'Voice' }).selectOption('flite:rms');
    await page.getByRole('combobox', { name: 'Speed' }).selectOption('1.25');
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Save' }).tap();
    await toastSays(page, 'Your voice settings are saved.');
    expect((await server.member.get('/api/voice')).body.choices).toMatchObject({ voice: 'flite:rms', rate: 1.25 });
  });

  describe('hands-free voice mode', () => {
    let wakeBrowser: Browser;
    const wakePages = createPageOpener(() => ({ browser: wakeBrowser, server }));
    beforeAll(async () => {
      // this microphone says "Hey Jarvis." and then a question, over and over
      wakeBrowser = await launchChromium(['--autoplay-policy=no-user-gesture-required', '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-audio-capture=${wakeClip(temp.dir)}`]);
    });
    afterAll(async () => {
      await wakePages.closeAll({ quietly: true });
      await wakeBrowser?.close();
      expect(wakePages.pageErrors).toEqual([]);
    });

    it('switched on, the wake word opens the microphone; the question is sent and the answer spoken sentence by sentence (390 px)', async () => {
      const page = await wakePages.open('member', PHONE);
      await recordScheduledAudio(page);
      const speech: string[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith('/api/tts/stream')) speech.push(String(r.postDataJSON()?.text));
      });
      await page.goto(`${server.url}/chat`);
      await page.getByTestId('voice-mode-button').tap();
      const status = page.getByTestId('voice-mode-status');
      await shown(status.getByText('Tap Speak and ask your question.'));
      await expectNoSeriousA11yViolations(page);
      await page.getByTestId('wake-word-switch').check();
      await shown(status.getByText('Say “Hey Jarvis”, or tap Speak.'), 30_000);
      expect((await server.member.get('/api/voice')).body.choices).toMatchObject({ wakeWord: true, wakeWordId: 'hey_jarvis' });
      await expectNoSeriousA11yViolations(page);
      await page.screenshot({ path: '/tmp/hearth-phone-voice-mode-open.png' });
      // heard, written down, sent: the question is in the chat
      const said = page.locator('.chat-bubble__text').first();
      await shown(said, 40_000);
      expect(await said.textContent()).toMatch(/milk/i);
      // the answer is spoken, sentence by sentence as it was written (more than one request)
      await page.waitForFunction(() => (window as unknown as { scheduled: Array<{ duration: number }> }).scheduled.reduce((n, s) => n + s.duration, 0) > 3, undefined, { timeout: 30_000 });
      expect(speech.length).toBeGreaterThan(1);
      expect(speech.join(' ')).toContain('Dinner will be ready at six.');
      await page.getByRole('button', { name: 'End voice mode' }).tap();
      await gone(page.getByTestId('voice-mode'));
      await page.screenshot({ path: '/tmp/hearth-phone-voice-mode.png' });
    });
  });
});
