// ntfy (docs.ntfy.sh/publish): POST <server>/<topic> with the message as the body and the title in
// the Title header; an access token goes as `Authorization: Bearer`. The server is the one an admin
// set (a home-network origin on the guard the caller hands in).
import type { SsrfGuard } from '../../platform/ssrf.js';
import { checkStatus, guardedPost } from './http.js';

export interface NtfyMessage {
  topic: string;
  title: string;
  message: string;
}

export async function sendNtfy(guard: SsrfGuard, server: { url: string; token: string | null }, m: NtfyMessage, timeoutMs: number): Promise<void> {
  const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8', title: encodeTitle(m.title) };
  if (server.token) headers.authorization = `Bearer ${server.token}`;
  const base = server.url.endsWith('/') ? server.url : `${server.url}/`;
  const res = await guardedPost(guard, 'ntfy server', new URL(encodeURIComponent(m.topic), base).toString(), { headers, body: m.message, timeoutMs });
  checkStatus('ntfy server', res.status);
}

/** HTTP header values are Latin-1: anything else is dropped from the title (the body keeps it). */
const encodeTitle = (t: string) => t.replace(/[^\x20-\x7e\xa0-\xff]/g, '').slice(0, 200);
