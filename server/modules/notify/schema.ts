// Notification channels (issue 38): the admin's channel servers, each member's addresses and
// routes, the Telegram self-link, the delivery log. Secrets (tokens, passwords, the bot token, a
// member's Gotify token) go in and never come out: answers say `tokenSet`/`passwordSet` instead.
import { z } from 'zod';
import { NotificationType } from '../notifications/schema.js';

export const CHANNEL_TYPES = ['ntfy', 'gotify', 'email', 'telegram'] as const;
export const ChannelType = z.enum(CHANNEL_TYPES);
export type ChannelType = z.infer<typeof ChannelType>;
/** Where a notification type may go: in the app, or one of the channels. */
export const RouteTarget = z.enum(['inapp', ...CHANNEL_TYPES]);
export type RouteTarget = z.infer<typeof RouteTarget>;
export { NotificationType };

const httpUrl = z.url({ protocol: /^https?$/, error: 'Give the server’s address, starting with http:// or https://.' }).max(500);
const secret = z.string().trim().min(1).max(500);

export const NtfyConfigBody = z.object({ url: httpUrl, token: secret.optional() }).strict();
export const GotifyConfigBody = z.object({ url: httpUrl }).strict();
export const EmailConfigBody = z
  .object({
    host: z.string().trim().min(1).max(253).regex(/^[A-Za-z0-9.:[\]-]+$/, 'Give the mail server’s name or address.'),
    port: z.number().int().min(1).max(65535),
    secure: z.boolean(),
    user: z.string().trim().min(1).max(200).optional(),
    password: secret.optional(),
    from: z.email({ error: 'Give the sender’s e-mail address.' }).max(254),
  })
  .strict();
export const TelegramConfigBody = z.object({ botToken: z.string().trim().regex(/^\d{3,20}:[A-Za-z0-9_-]{20,100}$/, 'That does not look like a bot token from BotFather (digits, a colon, then letters).') }).strict();
export const CONFIG_BODIES = { ntfy: NtfyConfigBody, gotify: GotifyConfigBody, email: EmailConfigBody, telegram: TelegramConfigBody } as const;
export type NtfyConfigBody = z.infer<typeof NtfyConfigBody>;
export type EmailConfigBody = z.infer<typeof EmailConfigBody>;

export const ChannelTypeParams = z.object({ type: ChannelType });

/** One channel server as the admin sees it: never its secret. */
export const AdminChannel = z.object({
  type: ChannelType,
  configured: z.boolean(),
  url: z.string().nullable(),
  host: z.string().nullable(),
  port: z.number().int().nullable(),
  secure: z.boolean().nullable(),
  user: z.string().nullable(),
  from: z.string().nullable(),
  /** ntfy's access token, the mail password or the bot token is kept. */
  tokenSet: z.boolean(),
  botUsername: z.string().nullable(),
  /** Telegram: whether the long poll for link codes runs (not in offline mode). */
  polling: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type AdminChannel = z.infer<typeof AdminChannel>;
export const AdminChannelsResponse = z.object({ channels: z.array(AdminChannel), offline: z.boolean() });
export type AdminChannelsResponse = z.infer<typeof AdminChannelsResponse>;
export const AdminChannelResponse = z.object({ channel: AdminChannel });

export const Delivery = z.object({
  id: z.string(),
  at: z.string(),
  userId: z.string().nullable(),
  memberName: z.string().nullable(),
  notificationType: z.string(),
  channel: ChannelType,
  ok: z.boolean(),
  attempts: z.number().int(),
  message: z.string(),
});
export type Delivery = z.infer<typeof Delivery>;
export const DeliveriesResponse = z.object({ deliveries: z.array(Delivery) });
export type DeliveriesResponse = z.infer<typeof DeliveriesResponse>;
export const DELIVERIES_LIMIT = 100;

const MAX_ROUTE_TARGETS = 5;
export const RoutesBody = z
  .object({
    channels: z
      .object({
        ntfy: z.object({ topic: z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, 'An ntfy topic is 1 to 64 letters, digits, - or _.') }).strict().nullable().optional(),
        gotify: z.object({ token: secret }).strict().nullable().optional(),
        email: z.object({ address: z.email({ error: 'Give an e-mail address.' }).max(254) }).strict().nullable().optional(),
      })
      .strict()
      .default({}),
    routes: z.partialRecord(NotificationType, z.array(RouteTarget).max(MAX_ROUTE_TARGETS)).default({}),
  })
  .strict();
export type RoutesBody = z.infer<typeof RoutesBody>;

/** A member's channels and routes as they see them: the Gotify token never, `tokenSet` instead. */
export const MemberRoutes = z.object({
  channels: z.object({
    ntfy: z.object({ topic: z.string() }).nullable(),
    gotify: z.object({ tokenSet: z.boolean() }).nullable(),
    email: z.object({ address: z.string() }).nullable(),
    /** `blocked`: Telegram refused the last send (the member blocked the bot); linking again or unblocking mends it. */
    telegram: z.object({ linked: z.boolean(), linkedAt: z.string().nullable(), blocked: z.boolean() }),
  }),
  routes: z.record(z.string(), z.array(RouteTarget)),
  /** The notification types a route may be set for. */
  types: z.array(NotificationType),
  /** The channels the admin has set up (the others cannot be chosen). */
  available: z.array(ChannelType),
  /** Offline mode: only in-app notifications are delivered. */
  offline: z.boolean(),
});
export type MemberRoutes = z.infer<typeof MemberRoutes>;

export const TestResponse = z.object({ delivered: z.boolean(), attempts: z.number().int(), message: z.string() });
export type TestResponse = z.infer<typeof TestResponse>;

export const LinkCodeResponse = z.object({ code: z.string(), url: z.string(), expiresAt: z.string() });
export type LinkCodeResponse = z.infer<typeof LinkCodeResponse>;
export const LinkStatusResponse = z.object({ linked: z.boolean(), linkedAt: z.string().nullable(), blocked: z.boolean(), botUsername: z.string().nullable(), pending: z.boolean() });
export type LinkStatusResponse = z.infer<typeof LinkStatusResponse>;
export const DeletedResponse = z.object({ deleted: z.boolean() });
