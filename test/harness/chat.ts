// Helpers for the chat API tests: one answer stream read whole (events parsed from the SSE text),
// or opened live (connectSse) for the tests that stop it midway.
import type { TestClient } from './client.js';
import { connectSse, type SseConnection, type SseEvent } from './sse-client.js';

export const STREAM = '/api/chat/chat/stream';

export interface Answer {
  status: number;
  /** The JSON error body of a refusal, else undefined. */
  body: any;
  events: SseEvent[];
  /** The data of the first event of that name. */
  get(name: string): any;
  names: string[];
}

export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const frame of text.split('\n\n')) {
    let event = 'message';
    const data: string[] = [];
    for (const line of frame.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length > 0) events.push({ event, data: JSON.parse(data.join('\n')) });
  }
  return events;
}

/** Sends one question and reads the whole stream (or the refusal). */
export async function ask(client: TestClient, body: Record<string, unknown>): Promise<Answer> {
  const r = await client.post(STREAM, body);
  const isStream = String(r.headers['content-type'] ?? '').includes('text/event-stream');
  const events = isStream ? parseSse(r.text) : [];
  return {
    status: r.status,
    body: isStream ? undefined : r.body,
    events,
    names: events.map((e) => e.event),
    get: (name) => events.find((e) => e.event === name)?.data,
  };
}

/** Opens the stream live, as the web app does. */
export function openAnswer(client: TestClient, body: Record<string, unknown>): Promise<SseConnection> {
  return connectSse(client.baseUrl, STREAM, { cookie: client.cookie!, origin: client.baseUrl }, { body });
}
