// Kill -9 of Hearth in the middle of a chat answer (issue 29 item 8): what had streamed is kept.
// The answer is written out while it streams (at most 2 s apart, not per word), and the next start
// marks an answer the dead process left "streaming" as stopped, its text kept. A real Hearth in a
// child process answers from the Ollama fake, which sends one word every 40 ms.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHAT_MODEL, startFakeModelRuntime, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { openAnswer } from '../harness/chat.js';
import { TestClient } from '../harness/client.js';
import { freePort, until } from '../harness/net.js';
import { kill9, startHearthProcess, stopProcess } from '../harness/processes.js';
import { ADMIN } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

const REPLY = Array.from({ length: 600 }, (_, i) => `word${i}`).join(' ');

let fake: FakeModelRuntime;
const temp = makeTempDir();
let child: ChildProcess | null = null;

const startHearth = (port: number, what: string) => startHearthProcess({ port, dataDir: temp.dir, env: { MODEL_RUNTIME_URL: fake.url }, what });

beforeAll(async () => {
  fake = await startFakeModelRuntime({ chunkDelayMs: 40, chatReply: REPLY });
});
afterAll(async () => {
  await stopProcess(child);
  await fake.close();
  temp.remove();
});

it('keeps the streamed part of an answer through kill -9, and the next start marks it stopped', { timeout: 120_000 }, async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  child = await startHearth(port, 'first start');
  const admin = new TestClient(base);
  expect((await admin.post('/api/setup/admin', ADMIN)).status).toBe(201);

  const live = await openAnswer(admin, { message: 'Tell me a long story', model: CHAT_MODEL.name });
  expect(live.status).toBe(200);
  const id = (await live.waitFor((e) => e.event === 'conversation')).data.id as string;
  // 64 streamed lines, as in the report
  await live.waitFor((e) => e.event === 'token' && e.data.text.startsWith('word63'), 30_000);
  const answer = async (client: TestClient) => {
    const r = await client.get(`/api/chat/conversations/${id}`);
    expect(r.status, r.text).toBe(200);
    return r.body.conversation.messages.find((m: { role: string }) => m.role === 'assistant') as { status: string; content: string };
  };
  // while it streams, what arrived so far is on disk (written every 2 s at the latest)
  const written = await until(async () => {
    const m = await answer(admin);
    return m.content.length > 0 ? m : null;
  }, 'the partial answer to be written while it streams', 10_000);
  expect(written.status).toBe('streaming');
  expect(REPLY.startsWith(written.content)).toBe(true);

  await kill9(child);
  child = null;
  live.close();
  const tokens = live.events.filter((e) => e.event === 'token').length;
  expect(tokens).toBeLessThan(600); // the kill came mid-answer

  child = await startHearth(port, 'second start');
  const kept = await answer(admin);
  expect(kept.status).toBe('stopped');
  expect(kept.content.length).toBeGreaterThanOrEqual(written.content.length);
  expect(REPLY.startsWith(kept.content)).toBe(true);
  // the row itself says stopped (the start marked it), not only the view of it
  const db = new Database(path.join(temp.dir, 'hearth.db'), { readonly: true });
  try {
    const row = db.prepare('SELECT status, length(content) AS chars FROM chat_messages WHERE conversation_id = ? AND role = ?').get(id, 'assistant') as { status: string; chars: number };
    expect(row).toEqual({ status: 'stopped', chars: kept.content.length });
  } finally {
    db.close();
  }
});
