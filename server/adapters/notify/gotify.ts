// Gotify: POST <server>/message with the application token in X-Gotify-Key and
// `{title, message, priority}` as JSON. The server is the admin's; the token is the member's own
// (an application token made in their Gotify), held server-side.
import type { SsrfGuard } from '../../platform/ssrf.js';
import { checkStatus, guardedPost } from './http.js';

export async function sendGotify(guard: SsrfGuard, server: { url: string }, token: string, m: { title: string; message: string }, timeoutMs: number): Promise<void> {
  const base = server.url.endsWith('/') ? server.url : `${server.url}/`;
  const res = await guardedPost(guard, 'Gotify server', new URL('message', base).toString(), {
    headers: { 'content-type': 'application/json', 'x-gotify-key': token },
    body: JSON.stringify({ title: m.title, message: m.message, priority: 5 }),
    timeoutMs,
  });
  checkStatus('Gotify server', res.status);
}
