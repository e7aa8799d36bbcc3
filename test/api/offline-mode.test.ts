// OFFLINE_MODE=1 is enforced at the one SSRF guard: every outbound fetch is refused with
// offline_mode before any DNS lookup, messages say how to change it (an environment variable, a
// restart), and refusals by design are logged as one line without a stack.
import type dns from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../server/platform/logger.js';
import { BlockedUrlError, createSsrfGuard, guardedRequest, OfflineModeError } from '../../server/platform/ssrf.js';
import { FakeFileServer, sha256 } from '../fakes/file-server.js';
import { startFakeModelRuntime } from '../fakes/model-runtime.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

/** A DNS lookup that records the names asked for and answers a public address. */
function lookupSpy() {
  const asked: string[] = [];
  const lookup = ((hostname: string, _opts: dns.LookupOptions, cb: (err: null, addresses: dns.LookupAddress[]) => void) => {
    asked.push(hostname);
    cb(null, [{ address: '93.184.215.14', family: 4 }]);
  }) as unknown as typeof dns.lookup;
  return { asked, lookup };
}

describe('the SSRF guard in offline mode', () => {
  it('refuses a URL with a name that would resolve, without a DNS lookup', async () => {
    const spy = lookupSpy();
    const guard = createSsrfGuard({ offline: true, lookup: spy.lookup });
    try {
      expect(() => guard.checkUrl('https://example.com/article')).toThrow(OfflineModeError);
      await expect(guardedRequest(guard, 'https://example.com/article')).rejects.toBeInstanceOf(OfflineModeError);
      // the socket-level lookup refuses too (a fetch that skipped checkUrl)
      const err = await new Promise<unknown>((resolve) => guard.lookup('example.com', {}, (e) => resolve(e)));
      expect(err).toBeInstanceOf(OfflineModeError);
      expect(spy.asked).toEqual([]);
      expect(guard.workerOptions).toBeNull(); // a custom lookup cannot cross a thread
      expect(createSsrfGuard({ offline: true }).workerOptions).toEqual({ allowOrigins: [], offline: true, offlineReason: 'env' });
    } finally {
      await guard.close();
    }
  });

  it('says how to change it in words (a restart with offline mode switched off), never an environment variable name', () => {
    const guard = createSsrfGuard({ offline: true });
    let message = '';
    try {
      guard.checkUrl('https://example.com/');
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/started in offline mode/);
    expect(message).not.toMatch(/\b[A-Z]+_[A-Z_]+\b/);
    expect(message).toMatch(/restart/i);
    expect(message).not.toMatch(/turn offline mode off/i);
  });

  it('still looks names up when not offline', () => {
    const spy = lookupSpy();
    const guard = createSsrfGuard({ lookup: spy.lookup });
    expect(guard.checkUrl('https://example.com/').hostname).toBe('example.com');
    guard.lookup('example.com', {}, () => undefined);
    expect(spy.asked).toEqual(['example.com']);
    void guard.close();
  });
});

describe('an offline server', () => {
  let files: FakeFileServer;
  let s: TestServer;
  beforeAll(async () => {
    files = await new FakeFileServer().start();
    // the fixture server stands in for the internet: offline mode must refuse it too
    s = await startTestServer({ seed: 'household', config: { offline: true, fetchAllowOrigins: [files.url] } });
  });
  afterAll(async () => {
    await s.close();
    await files.close();
  });

  it('refuses a Reader save with 503 offline_mode and fetches nothing', async () => {
    const page = files.addBuffer('article.html', Buffer.from('<html><body><p>hello</p></body></html>'));
    const mark = s.logger.lines.length;
    const r = await s.member.post('/api/reader', { url: page, type: 'offline' });
    expect(r.status).toBe(503);
    expect(r.body.error.code).toBe('offline_mode');
    expect(r.body.error.message).toMatch(/started in offline mode.*restarts it with offline mode switched off/);
    const probe = await s.member.get(`/api/reader/probe?url=${encodeURIComponent(page)}`);
    expect(probe.status).toBe(503);
    expect(probe.body.error.code).toBe('offline_mode');
    expect(files.requests).toEqual([]);
    // a refusal by design: one warn line, no stack, no error-level line
    const lines = s.logger.lines.slice(mark);
    expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
    const refused = lines.filter((l) => l.msg === 'request refused');
    expect(refused.length).toBe(2);
    expect(refused[0]).toMatchObject({ level: 40, code: 'offline_mode' });
    expect(JSON.stringify(lines)).not.toContain('    at ');
  });

  it('refuses a download with a message that says to restart with offline mode switched off', async () => {
    const r = await s.admin.post('/api/admin/queue/jobs', { jobs: [{ kind: 'component', target: `${files.url}/x.bin`, destination: 'x.bin', label: 'X', hostClass: 'code_host' }] });
    expect(r.status).toBe(503);
    expect(r.body.error.code).toBe('offline_mode');
    expect(r.body.error.message).toMatch(/started in offline mode.*restarts it with offline mode switched off/);
    expect(r.body.error.message).not.toMatch(/turn offline mode off/i);
  });
});

describe('logging expected refusals', () => {
  it('logs a blocked URL or a 4xx AppError as name, code and message, and keeps the stack of the unexpected', () => {
    const logger = createMemoryLogger();
    logger.warn({ err: new BlockedUrlError('That address is on a private or local network.', 'http://10.0.0.1/') }, 'blocked');
    logger.warn({ err: new OfflineModeError('https://example.com/') }, 'offline');
    logger.error({ err: new Error('boom') }, 'unexpected');
    const [blocked, offline, unexpected] = logger.lines.map((l) => l.err as Record<string, unknown>);
    expect(blocked).toEqual({ type: 'BlockedUrlError', message: 'That address is on a private or local network.' });
    expect(offline).toMatchObject({ type: 'OfflineModeError' });
    expect(offline).not.toHaveProperty('stack');
    expect(String(unexpected!.stack)).toContain('boom');
  });
});

describe('the essential-model boot steps after setup', () => {
  it('say "Not chosen yet" only while setup is unfinished, and do not warn on every start after it', async () => {
    const temp = makeTempDir();
    try {
      const first = await startTestServer({ dataDir: temp.dir });
      const before = first.handle.deps.boot.steps().find((x) => x.key === 'chat-model')!;
      expect(before).toMatchObject({ status: 'warn', detail: expect.stringContaining('Not chosen yet') });
      // setup finished without the model runtime: no model was chosen
      await first.handle.deps.settings.set('setup.welcome_complete', true);
      await first.handle.close();

      const again = await startTestServer({ dataDir: temp.dir });
      try {
        for (const key of ['chat-model', 'embeddings', 'router']) {
          const step = again.handle.deps.boot.steps().find((x) => x.key === key)!;
          expect(step.detail, key).not.toContain('Not chosen yet');
          expect(step.detail, key).toContain('model runtime');
        }
        expect(again.logger.lines.filter((l) => /Not chosen yet/.test(JSON.stringify(l)))).toEqual([]);
      } finally {
        await again.handle.close();
      }
    } finally {
      temp.remove();
    }
  });
});

describe('the essential-model repair in offline mode', () => {
  it('does not ask the model runtime to download a missing essential, and says why', async () => {
    const runtime = await startFakeModelRuntime({
      models: [],
      pullable: [{ name: 'lost:3b', family: 'test', parameterSize: '1B', quantization: 'Q4', sizeBytes: 100, capabilities: ['completion'], layers: [{ digest: `sha256:${sha256(Buffer.from('lost'))}`, total: 100 }] }],
    });
    const temp = makeTempDir();
    try {
      const first = await startTestServer({ dataDir: temp.dir, config: { modelRuntimeUrl: runtime.url } });
      await first.handle.deps.settings.set('chat_model', 'lost:3b');
      await first.handle.close();
      const s = await startTestServer({ dataDir: temp.dir, config: { modelRuntimeUrl: runtime.url, offline: true } });
      try {
        const step = s.handle.deps.boot.steps().find((x) => x.key === 'chat-model')!;
        expect(step).toMatchObject({ status: 'warn', detail: expect.stringContaining('started in offline mode') });
        expect(runtime.requests.filter((r) => r.path === '/api/pull')).toEqual([]);
      } finally {
        await s.handle.close();
      }
    } finally {
      await runtime.close();
      temp.remove();
    }
  });
});
