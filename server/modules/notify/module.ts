// The notify module (issue 38): notification channels. The admin sets the servers (ntfy, Gotify,
// e-mail, a Telegram bot); each member routes each notification type to in-app and/or channels.
// The one dispatcher hears every written notification on the bus (notification.created, told by
// the notifications module, which does not know this one) and sends it on, retried and logged.
// Offline mode (read at each call): nothing is sent and the Telegram poll does not run; notifications
// stay in the app. The poll stops when offline mode turns on and starts again when it turns off.
import { defineModule, type Platform } from '../module.js';
import { NotifyChannelsService } from './channels-service.js';
import { NotifyDispatcher } from './dispatcher.js';
import { NotifyMemberService } from './member-service.js';
import type { NotifyPorts } from './ports.js';
import { createNotifyAdminRoutes, createNotifyRoutes } from './routes.js';
import type { SendContext } from './senders.js';
import { NotifyStore } from './store.js';
import { TelegramPoller } from './telegram-poller.js';

export function createNotifyModule(p: Platform, ports: NotifyPorts) {
  const store = new NotifyStore(p.db);
  const offline = p.offline;
  const logger = p.logger.child('notify');
  const send: SendContext = { guard: p.guard, telegramApiUrl: p.config.telegramApiUrl, timeoutMs: p.tuning.notifyTimeoutMs ?? 10_000 };
  const dispatcher = new NotifyDispatcher({
    store,
    clock: p.clock,
    logger,
    send,
    backoffMs: p.tuning.notifyBackoffMs ?? 2_000,
    offline,
    adminIds: async () => (await ports.users.listProfiles()).filter((u) => u.role === 'admin').map((u) => u.id),
  });
  const poller = new TelegramPoller({ store, clock: p.clock, logger, send, waitSeconds: p.tuning.telegramPollSeconds ?? 30, offline });
  const restartPoller = () => void poller.restart().catch((err: unknown) => logger.error({ err }, 'telegram poll could not start'));
  const notifyChannels = new NotifyChannelsService({ store, clock: p.clock, send, offline, onTelegramChanged: restartPoller, polling: () => poller.running });
  const notifyMembers = new NotifyMemberService({ store, clock: p.clock, dispatcher, offline });
  let stopListening: (() => void) | undefined;
  return defineModule({
    name: 'notify',
    routes: [
      { prefix: '/notify', routes: createNotifyRoutes(notifyMembers) },
      { prefix: '/admin/notify', routes: createNotifyAdminRoutes(notifyChannels, offline) },
    ],
    services: { notifyChannels, notifyMembers },
    listeners: [{ event: 'notification.created', run: (n) => dispatcher.onCreated(n) }],
    start: async () => {
      stopListening = offline.onChange(restartPoller);
      await poller.restart();
    },
    close: async () => {
      stopListening?.();
      await poller.close();
      await dispatcher.close();
    },
  });
}
