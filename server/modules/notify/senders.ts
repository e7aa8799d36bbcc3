// One send to one member on one channel, through the adapters: the admin's server (a home-network
// origin on a guard made from the household's one guard) and the member's own address. Telegram
// goes to TELEGRAM_API_URL through the household guard itself.
import { sendEmail, smtpOrigin } from '../../adapters/notify/email.js';
import { sendGotify } from '../../adapters/notify/gotify.js';
import { sendNtfy } from '../../adapters/notify/ntfy.js';
import { telegramSendMessage } from '../../adapters/notify/telegram.js';
import { createSsrfGuard, type SsrfGuard } from '../../platform/ssrf.js';
import type { ChannelType } from './schema.js';
import type { ChannelRow, MemberRow } from './store.js';

export interface SendContext {
  guard: SsrfGuard;
  telegramApiUrl: string;
  timeoutMs: number;
}

export interface OutgoingMessage {
  title: string;
  body: string;
}

/** Why a member cannot be sent to on a channel (before any attempt), or null when they can. */
export function missingFor(type: ChannelType, server: ChannelRow | null, member: MemberRow | null): string | null {
  if (!server) return `The ${CHANNEL_NAMES[type]} channel is not set up by an admin.`;
  if (type === 'ntfy' && !member?.ntfyTopic) return 'No ntfy topic is set in your notification settings.';
  if (type === 'gotify' && !member?.gotifyToken) return 'No Gotify application token is set in your notification settings.';
  if (type === 'email' && !member?.emailAddress) return 'No e-mail address is set in your notification settings.';
  if (type === 'telegram' && !member?.telegramChatId) return 'Telegram is not linked yet: make a link code and send it to the bot.';
  return null;
}

export const CHANNEL_NAMES: Record<ChannelType, string> = { ntfy: 'ntfy', gotify: 'Gotify', email: 'e-mail', telegram: 'Telegram' };

/** A guard that lets exactly the admin's server through as a home-network address. */
const lanGuard = (base: SsrfGuard, origin: string) => createSsrfGuard({ allowOrigins: base.allowOrigins, lanOrigins: [origin], offline: base.offlineSource });

export async function sendOnce(ctx: SendContext, type: ChannelType, server: ChannelRow, member: MemberRow, m: OutgoingMessage): Promise<void> {
  const cfg = server.config;
  if (type === 'telegram') {
    await telegramSendMessage(ctx.guard, ctx.telegramApiUrl, server.secret ?? '', member.telegramChatId ?? '', m.body ? `${m.title}\n\n${m.body}` : m.title, ctx.timeoutMs);
    return;
  }
  const smtp = { host: String(cfg.host), port: Number(cfg.port) };
  // the address was checked when the admin saved it (schema.ts)
  const origin = type === 'email' ? smtpOrigin(smtp) : new URL(String(cfg.url)).origin;
  const guard = lanGuard(ctx.guard, origin);
  try {
    if (type === 'ntfy') await sendNtfy(guard, { url: String(cfg.url), token: server.secret }, { topic: member.ntfyTopic ?? '', title: m.title, message: m.body || m.title }, ctx.timeoutMs);
    else if (type === 'gotify') await sendGotify(guard, { url: String(cfg.url) }, member.gotifyToken ?? '', { title: m.title, message: m.body || m.title }, ctx.timeoutMs);
    else
      await sendEmail(
        guard,
        { ...smtp, secure: cfg.secure === true, user: typeof cfg.user === 'string' ? cfg.user : null, password: server.secret, from: String(cfg.from) },
        { to: member.emailAddress ?? '', subject: m.title, text: m.body || m.title },
        ctx.timeoutMs,
      );
  } finally {
    await guard.close();
  }
}
