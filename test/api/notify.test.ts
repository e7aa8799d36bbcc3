// Notification channels over HTTP against the fakes (issue 38): the admin's servers (secrets never
// answered; a Telegram bot token Telegram refuses is not saved), each member's channels and routes
// (unknown types and channels 400, a channel the admin has not set up 422), a test send per channel
// (ntfy, Gotify, e-mail through the SMTP sink), the one dispatcher (a notification routed to ntfy
// arrives there; a failing channel retried with backoff and logged; a refusal not retried), the
// Telegram self-link through the fake's long poll (a good code links the chat, an unknown one gets
// a hint, a blocked chat fails with 403 and is logged), OFFLINE_MODE (in-app only). The secrets
// scan over every answer and log line runs last.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveriesResponse, MemberRoutes } from '../../server/modules/notify/schema.js';
import { startFakeGotify, startFakeNtfy, startFakeSmtp, startFakeTelegram, TELEGRAM_BOT, TELEGRAM_TOKEN, type FakeGotify, type FakeNtfy, type FakeSmtp, type FakeTelegram } from '../fakes/notify.js';
import { createTokenScan } from '../harness/media-token-scan.js';
import { until } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const NTFY_TOKEN = 'tk_ntfysecrettoken0123456789';
const GOTIFY_TOKEN = 'AgotifyAppToken1';
const WRONG_BOT = '987654321:AAHthisTokenIsNotKnownToTelegram00000';

describe('notification channels (/api/notify, /api/admin/notify)', () => {
  let ntfy: FakeNtfy;
  let gotify: FakeGotify;
  let smtp: FakeSmtp;
  let tg: FakeTelegram;
  let s: TestServer;
  const scan = createTokenScan();
  const linkCodes: string[] = [];

  beforeAll(async () => {
    [ntfy, gotify, smtp, tg] = await Promise.all([startFakeNtfy(), startFakeGotify(), startFakeSmtp(), startFakeTelegram()]);
    s = await startTestServer({
      seed: 'household',
      config: { telegramApiUrl: tg.url, fetchAllowOrigins: [tg.origin] },
      overrides: { tuning: { notifyBackoffMs: 20, notifyTimeoutMs: 800, telegramPollSeconds: 1 } },
    });
    scan.watch(s);
  });
  afterAll(async () => {
    await s?.close();
    await Promise.all([ntfy?.close(), gotify?.close(), smtp?.close(), tg?.close()]);
  });

  const deliveries = async () => (await s.admin.get<DeliveriesResponse>('/api/admin/notify/deliveries')).body.deliveries;
  const notifyMember = (payload: Record<string, unknown>, type = 'system') => s.admin.post('/api/notifications', { type, userId: s.users.member.id, payload });
  /** Waits for the delivery log to hold `n` rows for that channel. */
  const logged = (channel: string, n: number) => until(async () => ((await deliveries()).filter((d) => d.channel === channel).length >= n ? deliveries() : null), `${n} ${channel} deliveries`, 15_000);
  const clearLog = () => s.handle.deps.db('notify_deliveries').delete();

  describe('who may ask', () => {
    it('answers 401 without a session and 403 to a member on the admin routes', async () => {
      for (const path of ['/api/notify/routes', '/api/notify/link-status', '/api/admin/notify', '/api/admin/notify/deliveries']) expect((await s.anon.get(path)).status).toBe(401);
      expect((await s.anon.put('/api/notify/routes', { routes: {} })).status).toBe(401);
      expect((await s.anon.post('/api/notify/link-code', {})).status).toBe(401);
      expect((await s.anon.post('/api/notify/channels/ntfy/test', {})).status).toBe(401);
      expect((await s.member.get('/api/admin/notify')).status).toBe(403);
      expect((await s.member.get('/api/admin/notify/deliveries')).status).toBe(403);
      expect((await s.member.put('/api/admin/notify/ntfy', { url: ntfy.url })).status).toBe(403);
      expect((await s.member.delete('/api/admin/notify/ntfy')).status).toBe(403);
      expect(ntfy.messages).toEqual([]);
    });
  });

  describe('before an admin sets anything up', () => {
    it('lists every channel as not configured and refuses routes and link codes with a sentence', async () => {
      const a = await s.admin.get('/api/admin/notify');
      expect(a.status).toBe(200);
      expect(a.body.channels.map((c: { type: string; configured: boolean }) => [c.type, c.configured])).toEqual([
        ['ntfy', false],
        ['gotify', false],
        ['email', false],
        ['telegram', false],
      ]);
      const m = await s.member.get<MemberRoutes>('/api/notify/routes');
      expect(m.body).toMatchObject({ routes: {}, available: [], offline: false, types: ['install_complete', 'download_complete', 'system'] });
      expect((await s.admin.get<MemberRoutes>('/api/notify/routes')).body.types).toEqual(['install_request', 'install_complete', 'download_complete', 'system']);
      const r = await s.member.put('/api/notify/routes', { channels: { ntfy: { topic: 'sam-home' } }, routes: { system: ['inapp', 'ntfy'] } });
      expect(r.status).toBe(422);
      expect(r.body.error).toEqual({ code: 'channel_not_set_up', message: expect.stringMatching(/ntfy is not set up.*Ask an admin/) });
      const code = await s.member.post('/api/notify/link-code', {});
      expect(code.status).toBe(409);
      expect(code.body.error.message).toMatch(/Ask an admin to connect a bot/);
      expect((await s.member.get('/api/notify/link-status')).body).toEqual({ linked: false, linkedAt: null, blocked: false, botUsername: null, pending: false });
    });
  });

  describe('the admin sets the servers', () => {
    it('refuses bad input with 400 and a sentence, writing nothing', async () => {
      for (const [type, body] of [
        ['ntfy', { url: 'ftp://example.org' }],
        ['ntfy', { url: ntfy.url, extra: 1 }],
        ['gotify', {}],
        ['email', { host: smtp.host, port: 70000, secure: false, from: 'hearth@home.lan' }],
        ['email', { host: smtp.host, port: smtp.port, secure: false, from: 'not-an-address' }],
        ['telegram', { botToken: 'short' }],
        ['matrix', { url: ntfy.url }],
      ] as const) {
        const r = await s.admin.put(`/api/admin/notify/${type}`, body);
        expect(r.status, `${type} ${JSON.stringify(body)}`).toBe(400);
        expect(typeof r.body.error.message).toBe('string');
      }
      expect(await s.handle.deps.db('notify_channels').count({ n: '*' }).first()).toEqual({ n: 0 });
    });

    it('keeps ntfy, Gotify and e-mail with their secrets and answers tokenSet instead', async () => {
      const n = await s.admin.put('/api/admin/notify/ntfy', { url: ntfy.url, token: NTFY_TOKEN });
      expect(n.status).toBe(200);
      expect(n.body.channel).toMatchObject({ type: 'ntfy', configured: true, url: ntfy.url, tokenSet: true });
      expect((await s.admin.put('/api/admin/notify/gotify', { url: gotify.url })).body.channel).toMatchObject({ type: 'gotify', configured: true, tokenSet: false });
      const e = await s.admin.put('/api/admin/notify/email', { host: smtp.host, port: smtp.port, secure: false, user: smtp.credentials.user, password: smtp.credentials.password, from: 'hearth@home.lan' });
      expect(e.body.channel).toMatchObject({ type: 'email', host: smtp.host, port: smtp.port, user: 'hearth', from: 'hearth@home.lan', tokenSet: true });
      // saving again without the secret keeps it
      expect((await s.admin.put('/api/admin/notify/ntfy', { url: ntfy.url })).body.channel.tokenSet).toBe(true);
      const list = await s.admin.get('/api/admin/notify');
      expect(list.text).not.toContain(NTFY_TOKEN);
      expect(list.text).not.toContain(smtp.credentials.password);
    });

    it('checks a Telegram bot token with getMe: refused and not saved when Telegram does not take it', async () => {
      const bad = await s.admin.put('/api/admin/notify/telegram', { botToken: WRONG_BOT });
      expect(bad.status).toBe(422);
      expect(bad.body.error).toEqual({ code: 'notify_token_refused', message: expect.stringMatching(/^Telegram did not accept that token/) });
      expect((await s.handle.deps.db('notify_channels').where({ type: 'telegram' })).length).toBe(0);
      await tg.down();
      const down = await s.admin.put('/api/admin/notify/telegram', { botToken: TELEGRAM_TOKEN });
      expect(down.status).toBe(422);
      expect(down.body.error.code).toBe('notify_unreachable');
      await tg.up();
      const ok = await s.admin.put('/api/admin/notify/telegram', { botToken: TELEGRAM_TOKEN });
      expect(ok.status).toBe(200);
      expect(ok.body.channel).toMatchObject({ type: 'telegram', configured: true, tokenSet: true, botUsername: TELEGRAM_BOT });
      expect(ok.text).not.toContain(TELEGRAM_TOKEN);
      // the long poll starts with the bot
      await until(() => tg.polls.length > 0, 'the first getUpdates');
      expect((await s.admin.get('/api/admin/notify')).body.channels[3]).toMatchObject({ botUsername: TELEGRAM_BOT, polling: true });
    });
  });

  describe('a member routes notification types to channels', () => {
    it('refuses unknown types and channels with 400, and a channel without an address with 422', async () => {
      for (const body of [{ routes: { birthday: ['inapp'] } }, { routes: { system: ['pigeon'] } }, { routes: { system: 'ntfy' } }, { channels: { ntfy: { topic: 'has spaces' } } }, { channels: { matrix: { room: 'x' } } }, { channels: { email: { address: 'nope' } } }]) {
        const r = await s.member.put('/api/notify/routes', body);
        expect(r.status, JSON.stringify(body)).toBe(400);
      }
      const admins = await s.member.put('/api/notify/routes', { routes: { install_request: ['inapp'] } });
      expect(admins.status).toBe(422);
      expect(admins.body.error.message).toMatch(/admins only/);
      const r = await s.member.put('/api/notify/routes', { routes: { system: ['gotify'] } });
      expect(r.status).toBe(422);
      expect(r.body.error).toEqual({ code: 'channel_address_missing', message: expect.stringMatching(/No Gotify application token/) });
      expect(await s.handle.deps.db('notify_members').count({ n: '*' }).first()).toEqual({ n: 0 });
    });

    it('keeps the channels and routes; the Gotify token is kept server-side and answered as tokenSet', async () => {
      const r = await s.member.put<MemberRoutes>('/api/notify/routes', {
        channels: { ntfy: { topic: 'sam-home' }, gotify: { token: GOTIFY_TOKEN }, email: { address: 'sam@home.lan' } },
        routes: { system: ['inapp', 'ntfy'], download_complete: ['email', 'gotify'] },
      });
      expect(r.status).toBe(200);
      expect(r.body.channels).toEqual({ ntfy: { topic: 'sam-home' }, gotify: { tokenSet: true }, email: { address: 'sam@home.lan' }, telegram: { linked: false, linkedAt: null, blocked: false } });
      expect(r.body.routes).toEqual({ system: ['inapp', 'ntfy'], download_complete: ['email', 'gotify'] });
      expect(r.body.available).toEqual(['ntfy', 'gotify', 'email', 'telegram']);
      expect(r.text).not.toContain(GOTIFY_TOKEN);
      // the admin's own settings are apart from the member's
      expect((await s.admin.get<MemberRoutes>('/api/notify/routes')).body.routes).toEqual({});
    });

    it('sends a test on each channel the member set up (the SMTP sink gets the mail through AUTH)', async () => {
      await clearLog();
      const n = await s.member.post('/api/notify/channels/ntfy/test', {});
      expect(n.body).toEqual({ delivered: true, attempts: 1, message: 'Delivered by ntfy.' });
      expect(ntfy.messages.at(-1)).toMatchObject({ topic: 'sam-home', title: 'Test from Hearth', authorization: `Bearer ${NTFY_TOKEN}` });
      expect((await s.member.post('/api/notify/channels/gotify/test', {})).body.delivered).toBe(true);
      expect(gotify.messages.at(-1)).toMatchObject({ token: GOTIFY_TOKEN, title: 'Test from Hearth' });
      const e = await s.member.post('/api/notify/channels/email/test', {});
      expect(e.body).toMatchObject({ delivered: true });
      expect(smtp.mails.at(-1)).toMatchObject({ from: 'hearth@home.lan', to: ['sam@home.lan'], user: 'hearth' });
      expect(smtp.mails.at(-1)!.data).toMatch(/Subject: Test from Hearth/);
      const t = await s.member.post('/api/notify/channels/telegram/test', {});
      expect(t.body).toEqual({ delivered: false, attempts: 0, message: expect.stringMatching(/Telegram is not linked yet/) });
      expect((await s.member.post('/api/notify/channels/pigeon/test', {})).status).toBe(400);
      const log = await deliveries();
      expect(log.map((d) => [d.channel, d.ok, d.memberName, d.notificationType])).toEqual(
        expect.arrayContaining([
          ['ntfy', true, 'Sam', 'test'],
          ['gotify', true, 'Sam', 'test'],
          ['email', true, 'Sam', 'test'],
          ['telegram', false, 'Sam', 'test'],
        ]),
      );
    });
  });

  describe('the dispatcher', () => {
    it('sends a notification on to the channels its type is routed to, and keeps it in the app', async () => {
      await clearLog();
      const before = ntfy.messages.length;
      const r = await notifyMember({ title: 'Backup finished', body: 'All 3 disks are fine.' });
      expect(r.status).toBe(201);
      await logged('ntfy', 1);
      expect(ntfy.messages.slice(before)).toEqual([{ topic: 'sam-home', title: 'Backup finished', body: 'All 3 disks are fine.', authorization: `Bearer ${NTFY_TOKEN}` }]);
      expect((await s.member.get('/api/notifications')).body.notifications[0].payload.title).toBe('Backup finished');
      // a type routed nowhere else stays in the app
      await notifyMember({ title: 'Installed' }, 'install_complete');
      expect((await deliveries()).filter((d) => d.notificationType === 'install_complete')).toEqual([]);
    });

    it('tries a failing channel again with backoff (5xx, then down, then slow) and logs each outcome', async () => {
      await clearLog();
      ntfy.modes.failNext = 2;
      await notifyMember({ title: 'Retry me' });
      const [ok] = await logged('ntfy', 1);
      expect(ok).toMatchObject({ channel: 'ntfy', ok: true, attempts: 3, memberName: 'Sam', notificationType: 'system', message: 'Delivered by ntfy after 3 tries.' });
      expect(ntfy.messages.at(-1)?.title).toBe('Retry me');

      await ntfy.down();
      await notifyMember({ title: 'Nobody home' });
      const [down] = await logged('ntfy', 2);
      expect(down).toMatchObject({ ok: false, attempts: 3, message: 'The ntfy server could not be reached. Gave up after 3 tries.' });
      await ntfy.up();

      ntfy.modes.slowMs = 1500;
      await notifyMember({ title: 'Too slow' });
      const [slow] = await logged('ntfy', 3);
      expect(slow).toMatchObject({ ok: false, attempts: 3, message: 'The ntfy server did not answer in time. Gave up after 3 tries.' });
      ntfy.modes.slowMs = 0;
    });

    it('does not retry a refusal: a Gotify token the server does not know fails once', async () => {
      await clearLog();
      gotify.tokens.delete(GOTIFY_TOKEN);
      await notifyMember({ title: 'Download done' }, 'download_complete');
      const log = await logged('gotify', 1);
      expect(log.find((d) => d.channel === 'gotify')).toMatchObject({ ok: false, attempts: 1, message: 'The Gotify server refused the credentials.' });
      gotify.tokens.add(GOTIFY_TOKEN);
      // the same notification's e-mail went out
      expect((await logged('email', 1)).find((d) => d.channel === 'email')).toMatchObject({ ok: true });
    });

    it('tries the mail server again after a 451', async () => {
      await clearLog();
      smtp.modes.failNext = 1;
      await notifyMember({ title: 'Mail retry' }, 'download_complete');
      const log = await logged('email', 1);
      expect(log.find((d) => d.channel === 'email')).toMatchObject({ ok: true, attempts: 2 });
      expect(smtp.mails.at(-1)!.data).toMatch(/Subject: Mail retry/);
    });

    it('sends an admin-targeted notification on to every admin’s routes', async () => {
      await clearLog();
      await s.admin.put('/api/notify/routes', { channels: { ntfy: { topic: 'alex-admin' } }, routes: { install_request: ['inapp', 'ntfy'] } });
      await s.admin.post('/api/notifications', { type: 'install_request', payload: { requestedByName: 'Sam', toolName: 'Maps' } });
      await logged('ntfy', 1);
      expect(ntfy.messages.at(-1)).toMatchObject({ topic: 'alex-admin', title: 'Sam asks to install Maps' });
    });
  });

  describe('linking Telegram', () => {
    it('links the member’s chat when the bot receives /start <code>, and answers an unknown code with a hint', async () => {
      const c = await s.member.post('/api/notify/link-code', {});
      expect(c.status).toBe(201);
      expect(c.body.code).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
      expect(c.body.url).toBe(`https://t.me/${TELEGRAM_BOT}?start=${c.body.code}`);
      expect(Date.parse(c.body.expiresAt)).toBeGreaterThan(Date.now());
      linkCodes.push(c.body.code);
      expect((await s.member.get('/api/notify/link-status')).body).toMatchObject({ linked: false, pending: true, botUsername: TELEGRAM_BOT });
      // the code is kept hashed
      expect(JSON.stringify(await s.handle.deps.db('notify_link_codes').select('*'))).not.toContain(c.body.code);

      tg.userSends(4242, '/start not-a-code-we-made');
      await until(() => tg.sent.find((m) => m.chatId === '4242'), 'the hint');
      expect(tg.sent.find((m) => m.chatId === '4242')!.text).toMatch(/not known or has expired/);
      expect((await s.member.get('/api/notify/link-status')).body.linked).toBe(false);

      tg.userSends(5151, `/start ${c.body.code}`);
      const status = await until(async () => {
        const r = await s.member.get('/api/notify/link-status');
        return r.body.linked ? r.body : null;
      }, 'the link');
      expect(status).toMatchObject({ linked: true, pending: false });
      expect((await until(() => tg.sent.find((m) => m.chatId === '5151'), 'the reply')).text).toMatch(/^Linked/);
      // the code is single use
      tg.userSends(6161, `/start ${c.body.code}`);
      await until(() => tg.sent.find((m) => m.chatId === '6161'), 'the second hint');
      expect(tg.sent.find((m) => m.chatId === '6161')!.text).toMatch(/not known/);
    });

    it('delivers to the linked chat; a chat that blocked the bot fails with no retry and is logged', async () => {
      await clearLog();
      expect((await s.member.put('/api/notify/routes', { routes: { system: ['inapp', 'telegram'] } })).status).toBe(200);
      expect((await s.member.post('/api/notify/channels/telegram/test', {})).body).toMatchObject({ delivered: true });
      expect(tg.sent.at(-1)).toMatchObject({ chatId: '5151', text: expect.stringMatching(/^Test from Hearth/) });
      tg.modes.failNext = 1;
      await notifyMember({ title: 'Via Telegram' });
      expect((await logged('telegram', 2)).find((d) => d.notificationType === 'system')).toMatchObject({ ok: true, attempts: 2 });
      tg.blocked.add('5151');
      await notifyMember({ title: 'Blocked' });
      const log = await logged('telegram', 3);
      expect(log[0]).toMatchObject({ channel: 'telegram', ok: false, attempts: 1, message: 'The member has blocked the bot or never started it.' });
      // the member's settings say so, until a send gets through again
      expect((await s.member.get('/api/notify/link-status')).body).toMatchObject({ linked: true, blocked: true });
      expect((await s.member.get<MemberRoutes>('/api/notify/routes')).body.channels.telegram).toMatchObject({ linked: true, blocked: true });
      tg.blocked.delete('5151');
      expect((await s.member.post('/api/notify/channels/telegram/test', {})).body.delivered).toBe(true);
      expect((await s.member.get('/api/notify/link-status')).body.blocked).toBe(false);
    });

    it('forgets the linked chats when the admin removes the bot, and the poll stops', async () => {
      expect((await s.admin.delete('/api/admin/notify/telegram')).body).toEqual({ deleted: true });
      expect((await s.member.get('/api/notify/link-status')).body).toMatchObject({ linked: false, botUsername: null });
      expect((await s.admin.get('/api/admin/notify')).body.channels[3]).toMatchObject({ configured: false, polling: false });
      expect((await s.admin.delete('/api/admin/notify/telegram')).body).toEqual({ deleted: false });
    });
  });

  it('never answered or logged a credential', () => {
    scan.expectNoTokens([NTFY_TOKEN, GOTIFY_TOKEN, TELEGRAM_TOKEN, smtp.credentials.password]);
    expect(JSON.stringify(s.logger.lines)).not.toContain(TELEGRAM_TOKEN);
  });
});

describe('notification channels in offline mode', () => {
  let ntfy: FakeNtfy;
  let s: TestServer;
  beforeAll(async () => {
    ntfy = await startFakeNtfy();
    s = await startTestServer({ seed: 'household', config: { offline: true }, overrides: { tuning: { notifyBackoffMs: 20 } } });
  });
  afterAll(async () => {
    await s?.close();
    await ntfy?.close();
  });

  it('keeps notifications in the app only: nothing is sent, tests and link codes are refused with a sentence', async () => {
    expect((await s.admin.put('/api/admin/notify/ntfy', { url: ntfy.url })).status).toBe(200);
    expect((await s.admin.get('/api/admin/notify')).body.offline).toBe(true);
    const tg = await s.admin.put('/api/admin/notify/telegram', { botToken: TELEGRAM_TOKEN });
    expect(tg.status).toBe(400);
    expect(tg.body.error.message).toMatch(/offline mode/);
    expect((await s.member.put('/api/notify/routes', { channels: { ntfy: { topic: 'sam' } }, routes: { system: ['ntfy'] } })).status).toBe(200);
    expect((await s.member.get('/api/notify/routes')).body.offline).toBe(true);
    await s.admin.post('/api/notifications', { type: 'system', userId: s.users.member.id, payload: { title: 'Offline' } });
    expect((await s.member.get('/api/notifications')).body.notifications[0].payload.title).toBe('Offline');
    const t = await s.member.post('/api/notify/channels/ntfy/test', {});
    expect(t.status).toBe(503);
    expect(t.body.error.message).toMatch(/stay in the app/);
    expect((await s.admin.get('/api/admin/notify/deliveries')).body.deliveries).toEqual([]);
    expect(ntfy.messages).toEqual([]);
  });
});
