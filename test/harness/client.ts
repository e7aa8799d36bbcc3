// A small HTTP client for API tests: keeps the session cookie like a browser, sends the server's
// own Origin on state-changing requests (as the web app does), and parses JSON answers.
import { request, type Dispatcher } from 'undici';

export interface TestResponse<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** A raw body (string) sent as is; objects are sent as JSON. */
  raw?: string;
  origin?: string | null;
}

export class TestClient {
  cookie: string | undefined;
  constructor(readonly baseUrl: string, cookie?: string) {
    this.cookie = cookie;
  }

  async req<T = any>(method: Dispatcher.HttpMethod, path: string, body?: unknown, opts: RequestOptions = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (this.cookie && !('cookie' in headers)) headers.cookie = this.cookie;
    if (method !== 'GET' && method !== 'HEAD' && opts.origin !== null && !('origin' in headers)) headers.origin = opts.origin ?? this.baseUrl;
    let payload: string | undefined;
    if (opts.raw !== undefined) {
      payload = opts.raw;
      headers['content-type'] ??= 'application/json';
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await request(`${this.baseUrl}${path}`, { method, headers, body: payload });
    const text = await res.body.text();
    const setCookie = res.headers['set-cookie'];
    for (const c of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const [pair] = c.split(';');
      if (pair?.startsWith('session=')) this.cookie = /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(c) || pair === 'session=' ? undefined : pair;
    }
    let parsed: unknown = text;
    if (String(res.headers['content-type'] ?? '').includes('application/json')) parsed = JSON.parse(text);
    return { status: res.statusCode, headers: res.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, opts?: RequestOptions) {
    return this.req<T>('GET', path, undefined, opts);
  }
  post<T = any>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.req<T>('POST', path, body ?? {}, opts);
  }
  put<T = any>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.req<T>('PUT', path, body ?? {}, opts);
  }
  patch<T = any>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.req<T>('PATCH', path, body ?? {}, opts);
  }
  delete<T = any>(path: string, opts?: RequestOptions) {
    return this.req<T>('DELETE', path, undefined, opts);
  }
}
