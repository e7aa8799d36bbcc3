// Words for the notification types and channels, shared by the notify pages.
import type { NotifyChannelType } from '../../api/types';

export const CHANNEL_LABELS: Record<NotifyChannelType, string> = { ntfy: 'ntfy', gotify: 'Gotify', email: 'E-mail', telegram: 'Telegram' };

export const TYPE_LABELS: Record<string, string> = {
  install_request: 'Someone asks for an app',
  install_complete: 'An app finished installing',
  download_complete: 'A download finished',
  system: 'Reminders and alerts',
  test: 'Test',
};
