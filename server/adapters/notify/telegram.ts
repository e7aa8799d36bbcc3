// The Telegram Bot API (core.telegram.org/bots/api): getMe (the bot's username), getUpdates as a
// long poll (`offset`, `timeout` seconds; the link code arrives as the message `/start <code>`),
// sendMessage `{chat_id, text}`. The bot token is part of every URL: no URL, answer text or
// token goes into an error or a log line. The API's base (TELEGRAM_API_URL) goes through the
// household's one guard.
import type { SsrfGuard } from '../../platform/ssrf.js';
import { guardedPost, NotifyError } from './http.js';

export interface TelegramUpdate {
  updateId: number;
  chatId: string | null;
  text: string | null;
}

interface Answer<T> {
  ok: boolean;
  result?: T;
  error_code?: number;
  description?: string;
}

async function call<T>(guard: SsrfGuard, base: string, token: string, method: string, body: unknown, timeoutMs: number, signal?: AbortSignal): Promise<T> {
  const url = `${base.replace(/\/+$/, '')}/bot${token}/${method}`;
  const res = await guardedPost(guard, 'Telegram API', url, { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), timeoutMs, signal });
  let parsed: Answer<T>;
  try {
    parsed = JSON.parse(res.text) as Answer<T>;
  } catch {
    if (res.status >= 500) throw new NotifyError('server_error', `The Telegram API had an error (${res.status}).`, res.status);
    throw new NotifyError('bad_response', 'The Telegram API sent an answer Hearth could not read.', res.status);
  }
  if (parsed.ok && parsed.result !== undefined) return parsed.result;
  const status = parsed.error_code ?? res.status;
  if (status === 401 || status === 404) throw new NotifyError('refused', 'Telegram did not accept the bot token.', status);
  if (status === 403) throw new NotifyError('blocked_by_user', 'The member has blocked the bot or never started it.', status);
  if (status >= 500 || status === 429) throw new NotifyError('server_error', `The Telegram API had an error (${status}).`, status);
  throw new NotifyError('refused', `The Telegram API refused the request (${status}).`, status);
}

/** The bot's username (without @), which proves the token works. */
export async function telegramGetMe(guard: SsrfGuard, base: string, token: string, timeoutMs: number): Promise<string> {
  const me = await call<{ username?: string; is_bot?: boolean }>(guard, base, token, 'getMe', {}, timeoutMs);
  if (typeof me.username !== 'string' || !me.username) throw new NotifyError('bad_response', 'The Telegram API sent an answer Hearth could not read.');
  return me.username;
}

/** One long poll: the updates after `offset` (empty after `waitSeconds` without any). */
export async function telegramGetUpdates(guard: SsrfGuard, base: string, token: string, offset: number, waitSeconds: number, signal: AbortSignal): Promise<TelegramUpdate[]> {
  const raw = await call<Array<{ update_id: number; message?: { text?: string; chat?: { id?: number | string } } }>>(
    guard,
    base,
    token,
    'getUpdates',
    { offset, timeout: waitSeconds, allowed_updates: ['message'] },
    waitSeconds * 1000 + 10_000,
    signal,
  );
  if (!Array.isArray(raw)) throw new NotifyError('bad_response', 'The Telegram API sent an answer Hearth could not read.');
  return raw
    .filter((u) => typeof u?.update_id === 'number')
    .map((u) => ({ updateId: u.update_id, chatId: u.message?.chat?.id !== undefined ? String(u.message.chat.id) : null, text: typeof u.message?.text === 'string' ? u.message.text : null }));
}

export async function telegramSendMessage(guard: SsrfGuard, base: string, token: string, chatId: string, text: string, timeoutMs: number): Promise<void> {
  // Telegram takes at most 4096 characters a message
  await call<unknown>(guard, base, token, 'sendMessage', { chat_id: chatId, text: text.length > 4096 ? `${text.slice(0, 4095)}…` : text }, timeoutMs);
}
