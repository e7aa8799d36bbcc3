// multipart/form-data bodies as a browser builds them, and a POST of one with a client's session.
import { request } from 'undici';
import type { TestClient } from './client.js';

export type FormPart = { name: string; value: string } | { name: string; filename: string; type: string; bytes: Buffer };

export function multipart(parts: FormPart[]): { body: Buffer; type: string } {
  const boundary = `----hearth${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if ('filename' in p) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type}\r\n\r\n`), p.bytes, Buffer.from('\r\n'));
    } else {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

/** POSTs a form as `client`; the answer parsed when it is JSON, else its text (an event stream). */
export async function postForm(baseUrl: string, client: TestClient, path: string, parts: FormPart[]): Promise<{ status: number; body: any; text: string }> {
  const form = multipart(parts);
  const res = await request(`${baseUrl}${path}`, { method: 'POST', body: form.body, headers: { cookie: client.cookie!, origin: baseUrl, 'content-type': form.type } });
  const text = await res.body.text();
  return { status: res.statusCode, body: String(res.headers['content-type']).includes('json') ? JSON.parse(text) : text, text };
}

/** GETs a file as `client`, as bytes (TestClient reads bodies as text). */
export async function getBytes(baseUrl: string, client: TestClient, path: string): Promise<{ status: number; type: string; bytes: Buffer }> {
  const res = await request(`${baseUrl}${path}`, { headers: { cookie: client.cookie! } });
  return { status: res.statusCode, type: String(res.headers['content-type']), bytes: Buffer.from(await res.body.arrayBuffer()) };
}
