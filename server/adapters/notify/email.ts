// E-mail over SMTP with nodemailer (loaded at first use). The mail server is the one an admin set;
// its socket is opened here through the SSRF guard (the URL check for the exact host and port, the
// guard's checked lookup for a name) and handed to nodemailer, which does the SMTP (STARTTLS or
// TLS on connect). The password goes only to the server's AUTH.
import net from 'node:net';
import type * as Nodemailer from 'nodemailer';
import { lazyRequire } from '../../platform/lazy.js';
import type { SsrfGuard } from '../../platform/ssrf.js';
import { NotifyError } from './http.js';

const nodemailer = lazyRequire<typeof Nodemailer>('nodemailer');

export interface SmtpServer {
  host: string;
  port: number;
  secure: boolean;
  user: string | null;
  password: string | null;
  from: string;
}

/** The origin the guard is told about for this mail server (its host and port). */
export const smtpOrigin = (s: { host: string; port: number }) => `http://${s.host.includes(':') ? `[${s.host}]` : s.host}:${s.port}`;

export async function sendEmail(guard: SsrfGuard, server: SmtpServer, m: { to: string; subject: string; text: string }, timeoutMs: number): Promise<void> {
  try {
    guard.checkUrl(smtpOrigin(server));
  } catch {
    throw new NotifyError('blocked', 'The mail server address was refused by the outbound guard.');
  }
  const transport = nodemailer().createTransport({
    host: server.host,
    port: server.port,
    secure: server.secure,
    auth: server.user ? { user: server.user, pass: server.password ?? '' } : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    getSocket: (_opts: unknown, cb: (err: Error | null, socket?: { connection: net.Socket }) => void) => {
      const socket = net.connect({ host: server.host, port: server.port, lookup: guard.lookup });
      const fail = (err: Error) => cb(err);
      socket.once('error', fail);
      socket.once('connect', () => {
        socket.off('error', fail);
        cb(null, { connection: socket });
      });
    },
  } as Parameters<typeof Nodemailer.createTransport>[0]);
  try {
    await transport.sendMail({ from: server.from, to: m.to, subject: m.subject, text: m.text });
  } catch (err) {
    const e = err as { code?: string; responseCode?: number };
    if (e.code === 'ETIMEDOUT') throw new NotifyError('timeout', 'The mail server did not answer in time.');
    if (e.code === 'EAUTH') throw new NotifyError('refused', 'The mail server refused the user name or password.');
    if (typeof e.responseCode === 'number' && e.responseCode >= 500) throw new NotifyError('refused', `The mail server refused the message (${e.responseCode}).`, e.responseCode);
    if (typeof e.responseCode === 'number' && e.responseCode >= 400) throw new NotifyError('server_error', `The mail server could not take the message now (${e.responseCode}).`, e.responseCode);
    throw new NotifyError('unreachable', 'The mail server could not be reached.');
  } finally {
    transport.close();
  }
}
