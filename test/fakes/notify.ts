// Stand-ins for the notification channels (reference/household-tools.md §3, §8), each on
// 127.0.0.1: ntfy (POST /<topic>, the Title header and Bearer token recorded), Gotify (POST
// /message with X-Gotify-Key), the Telegram Bot API (getMe with the one good token, a long-poll
// getUpdates answering scripted `/start <code>` messages, sendMessage with 403 for a chat that
// blocked the bot) and a small SMTP sink that nodemailer delivers to (EHLO, AUTH PLAIN/LOGIN,
// MAIL, RCPT, DATA). Failure modes: down (the port closed), slow (no answer for `slowMs`), and
// `failNext` 5xx answers (a 451 for SMTP) before it works again, for the retries.
import net from 'node:net';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendJson, startFakeHttp, type FakeHttp } from './today-http.js';

export interface FailureModes {
  /** How many next sends answer 503 (SMTP: 451) before it works again. */
  failNext: number;
  /** Wait this long before answering a send (0: at once). */
  slowMs: number;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface NtfyMessage {
  topic: string;
  title: string | undefined;
  body: string;
  authorization: string | undefined;
}
export interface FakeNtfy extends FakeHttp {
  messages: NtfyMessage[];
  modes: FailureModes;
}

export async function startFakeNtfy(): Promise<FakeNtfy> {
  const messages: NtfyMessage[] = [];
  const modes: FailureModes = { failNext: 0, slowMs: 0 };
  const http = await startFakeHttp(async (req, res, url) => {
    const body = await readBody(req);
    if (req.method !== 'POST' && req.method !== 'PUT') return sendJson(res, 405, { code: 40500, http: 405, error: 'method not allowed' });
    if (modes.slowMs) await sleep(modes.slowMs);
    if (modes.failNext > 0) {
      modes.failNext--;
      return sendJson(res, 503, { code: 50300, http: 503, error: 'service unavailable' });
    }
    const topic = decodeURIComponent(url.pathname.slice(1));
    messages.push({ topic, title: req.headers.title as string | undefined, body, authorization: req.headers.authorization });
    sendJson(res, 200, { id: `m${messages.length}`, time: Math.floor(Date.now() / 1000), expires: 0, event: 'message', topic, message: body });
  });
  return Object.assign(http, { messages, modes });
}

export interface GotifyMessage {
  token: string | undefined;
  title: string;
  message: string;
}
export interface FakeGotify extends FakeHttp {
  messages: GotifyMessage[];
  modes: FailureModes;
  /** The application tokens Gotify knows (others: 401). */
  tokens: Set<string>;
}

export async function startFakeGotify(): Promise<FakeGotify> {
  const messages: GotifyMessage[] = [];
  const modes: FailureModes = { failNext: 0, slowMs: 0 };
  const tokens = new Set<string>(['AgotifyAppToken1']);
  const http = await startFakeHttp(async (req, res, url) => {
    const body = await readBody(req);
    if (req.method !== 'POST' || url.pathname !== '/message') return sendJson(res, 404, { error: 'Not Found', errorCode: 404 });
    if (modes.slowMs) await sleep(modes.slowMs);
    if (modes.failNext > 0) {
      modes.failNext--;
      return sendJson(res, 500, { error: 'Internal Server Error', errorCode: 500 });
    }
    const token = (req.headers['x-gotify-key'] as string | undefined) ?? url.searchParams.get('token') ?? undefined;
    if (!token || !tokens.has(token)) return sendJson(res, 401, { error: 'Unauthorized', errorCode: 401, errorDescription: 'you need to provide a valid access token' });
    const m = JSON.parse(body) as { title: string; message: string };
    messages.push({ token, title: m.title, message: m.message });
    sendJson(res, 200, { id: messages.length, appid: 1, message: m.message, title: m.title, priority: 5, date: new Date().toISOString() });
  });
  return Object.assign(http, { messages, modes, tokens });
}

export const TELEGRAM_TOKEN = '123456789:AAHfakeBotTokenForHearthTests_0123456789';
export const TELEGRAM_BOT = 'hearth_test_bot';

export interface FakeTelegram extends FakeHttp {
  sent: Array<{ chatId: string; text: string }>;
  modes: FailureModes;
  /** Chats that blocked the bot: sendMessage answers 403. */
  blocked: Set<string>;
  /** A member sends a message to the bot (`/start <code>` after tapping the deep link). */
  userSends(chatId: number, text: string): void;
  /** getUpdates calls seen, with their offsets. */
  polls: number[];
}

export async function startFakeTelegram(): Promise<FakeTelegram> {
  const sent: Array<{ chatId: string; text: string }> = [];
  const modes: FailureModes = { failNext: 0, slowMs: 0 };
  const blocked = new Set<string>();
  const polls: number[] = [];
  const updates: Array<{ update_id: number; message: { message_id: number; date: number; chat: { id: number; type: string }; text: string } }> = [];
  let nextId = 1000;
  const waiters = new Set<() => void>();
  const http = await startFakeHttp(async (req, res, url) => {
    const raw = await readBody(req);
    const m = url.pathname.match(/^\/bot([^/]+)\/(\w+)$/);
    if (!m) return sendJson(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
    if (m[1] !== TELEGRAM_TOKEN) return sendJson(res, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
    const body = (raw ? JSON.parse(raw) : {}) as Record<string, unknown>;
    if (m[2] === 'getMe') return sendJson(res, 200, { ok: true, result: { id: 123456789, is_bot: true, first_name: 'Hearth', username: TELEGRAM_BOT } });
    if (m[2] === 'getUpdates') {
      const offset = Number(body.offset ?? 0);
      polls.push(offset);
      const pending = () => updates.filter((u) => u.update_id >= offset);
      if (pending().length === 0) {
        await new Promise<void>((resolve) => {
          const done = () => (clearTimeout(t), waiters.delete(done), resolve());
          const t = setTimeout(done, Math.min(Number(body.timeout ?? 0), 30) * 1000);
          waiters.add(done);
          res.on('close', done);
        });
      }
      if (res.destroyed) return;
      return sendJson(res, 200, { ok: true, result: pending() });
    }
    if (m[2] === 'sendMessage') {
      if (modes.slowMs) await sleep(modes.slowMs);
      if (modes.failNext > 0) {
        modes.failNext--;
        return sendJson(res, 502, { ok: false, error_code: 502, description: 'Bad Gateway' });
      }
      const chatId = String(body.chat_id);
      if (blocked.has(chatId)) return sendJson(res, 403, { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' });
      sent.push({ chatId, text: String(body.text) });
      return sendJson(res, 200, { ok: true, result: { message_id: sent.length, date: Math.floor(Date.now() / 1000), chat: { id: Number(chatId), type: 'private' }, text: body.text } });
    }
    sendJson(res, 404, { ok: false, error_code: 404, description: 'Not Found: method not found' });
  });
  return Object.assign(http, {
    sent,
    modes,
    blocked,
    polls,
    userSends(chatId: number, text: string) {
      updates.push({ update_id: nextId++, message: { message_id: nextId, date: Math.floor(Date.now() / 1000), chat: { id: chatId, type: 'private' }, text } });
      for (const w of [...waiters]) w();
    },
  });
}

export interface SmtpMail {
  from: string;
  to: string[];
  data: string;
  /** The AUTH the client gave (user name only; the sink checks the password). */
  user: string | null;
}
export interface FakeSmtp {
  host: string;
  port: number;
  mails: SmtpMail[];
  modes: FailureModes;
  /** The only user and password AUTH accepts. */
  credentials: { user: string; password: string };
  close(): Promise<void>;
}

/** A small SMTP sink (RFC 5321 subset, no TLS): what nodemailer needs to hand over a message. */
export async function startFakeSmtp(): Promise<FakeSmtp> {
  const mails: SmtpMail[] = [];
  const modes: FailureModes = { failNext: 0, slowMs: 0 };
  const credentials = { user: 'hearth', password: 'smtp-secret-pass' };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = '';
    let inData = false;
    let data: string[] = [];
    let mail: SmtpMail = { from: '', to: [], data: '', user: null };
    let authStep: 'none' | 'login-user' | 'login-pass' = 'none';
    let loginUser = '';
    const reply = (line: string) => socket.write(`${line}\r\n`);
    const checkAuth = (user: string, pass: string) => {
      if (user === credentials.user && pass === credentials.password) {
        mail.user = user;
        reply('235 2.7.0 Authentication successful');
      } else reply('535 5.7.8 Authentication credentials invalid');
    };
    const onLine = async (line: string) => {
      if (inData) {
        if (line === '.') {
          inData = false;
          if (modes.slowMs) await sleep(modes.slowMs);
          if (modes.failNext > 0) {
            modes.failNext--;
            return reply('451 4.3.0 Try again later');
          }
          mails.push({ ...mail, data: data.join('\n') });
          mail = { from: '', to: [], data: '', user: mail.user };
          return reply('250 2.0.0 Ok: queued');
        }
        data.push(line.startsWith('..') ? line.slice(1) : line);
        return;
      }
      if (authStep === 'login-user') {
        loginUser = Buffer.from(line, 'base64').toString();
        authStep = 'login-pass';
        return reply('334 UGFzc3dvcmQ6');
      }
      if (authStep === 'login-pass') {
        authStep = 'none';
        return checkAuth(loginUser, Buffer.from(line, 'base64').toString());
      }
      const [verb = '', ...rest] = line.split(' ');
      const arg = rest.join(' ');
      switch (verb.toUpperCase()) {
        case 'EHLO':
          return socket.write('250-fake-smtp\r\n250-AUTH PLAIN LOGIN\r\n250 8BITMIME\r\n');
        case 'HELO':
          return reply('250 fake-smtp');
        case 'AUTH': {
          const [mech, initial] = arg.split(' ');
          if (mech?.toUpperCase() === 'PLAIN' && initial) {
            const [, user = '', pass = ''] = Buffer.from(initial, 'base64').toString().split('\0');
            return checkAuth(user, pass);
          }
          if (mech?.toUpperCase() === 'LOGIN') {
            authStep = 'login-user';
            return reply('334 VXNlcm5hbWU6');
          }
          return reply('504 5.5.4 Unrecognized authentication type');
        }
        case 'MAIL':
          mail.from = arg.replace(/^FROM:\s*<?([^>\s]*)>?.*$/i, '$1');
          return reply('250 2.1.0 Ok');
        case 'RCPT':
          mail.to.push(arg.replace(/^TO:\s*<?([^>\s]*)>?.*$/i, '$1'));
          return reply('250 2.1.5 Ok');
        case 'DATA':
          inData = true;
          data = [];
          return reply('354 End data with <CR><LF>.<CR><LF>');
        case 'RSET':
          mail = { from: '', to: [], data: '', user: mail.user };
          return reply('250 2.0.0 Ok');
        case 'NOOP':
          return reply('250 2.0.0 Ok');
        case 'QUIT':
          reply('221 2.0.0 Bye');
          return socket.end();
        default:
          return reply('502 5.5.2 Command not recognized');
      }
    };
    let chain = Promise.resolve();
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let i: number;
      while ((i = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        chain = chain.then(async () => void (await onLine(line)));
      }
    });
    reply('220 fake-smtp ESMTP ready');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    host: '127.0.0.1',
    port,
    mails,
    modes,
    credentials,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
