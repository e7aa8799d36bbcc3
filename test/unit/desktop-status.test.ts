// The tray's readings of the server's status API, with a fake fetch.
import { describe, expect, it } from 'vitest';
import { fetchStatuses, type StatusFetch } from '../../main/status.js';

const json = (status: number, body: unknown) => ({ ok: status >= 200 && status < 300, status, json: () => Promise.resolve(body) });

describe('fetchStatuses', () => {
  it('reads the archive and model-runtime status routes of the running server', async () => {
    const asked: string[] = [];
    const fetchFn: StatusFetch = (url) => {
      asked.push(url);
      if (url.endsWith('/api/archives/status')) return Promise.resolve(json(200, { kiwixInstalled: true, kiwixState: 'ready', kiwixError: null, installedCount: 2 }));
      return Promise.resolve(json(200, { installed: true, running: false, version: null, url: 'http://127.0.0.1:11434', models: [], error: 'connect ECONNREFUSED' }));
    };
    const s = await fetchStatuses('http://127.0.0.1:8787', fetchFn);
    expect(asked.sort()).toEqual(['http://127.0.0.1:8787/api/archives/status', 'http://127.0.0.1:8787/api/setup/ollama-status']);
    expect(s.archives).toEqual({ kind: 'ok', value: { kiwixInstalled: true, kiwixState: 'ready', kiwixError: null, installedCount: 2 } });
    expect(s.modelRuntime).toMatchObject({ kind: 'ok', value: { installed: true, running: false } });
  });

  it('tells signed-out, failed and malformed answers apart', async () => {
    const s = await fetchStatuses('http://127.0.0.1:8787', (url) =>
      url.includes('archives') ? Promise.resolve(json(401, { error: { code: 'unauthorized' } })) : Promise.resolve(json(200, { installed: 'yes' })),
    );
    expect(s.archives).toEqual({ kind: 'signed-out' });
    expect(s.modelRuntime).toEqual({ kind: 'unavailable', reason: 'unexpected answer' });
    const down = await fetchStatuses('http://127.0.0.1:8787', () => Promise.reject(new Error('connect ECONNREFUSED')));
    expect(down.archives).toEqual({ kind: 'unavailable', reason: 'connect ECONNREFUSED' });
    const broken = await fetchStatuses('http://127.0.0.1:8787', () => Promise.resolve(json(500, {})));
    expect(broken.modelRuntime).toEqual({ kind: 'unavailable', reason: 'HTTP 500' });
  });
});
